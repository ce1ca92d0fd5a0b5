import sigra.agents.SIGRA;

/**
 * SIGRA (cudy789/gin-rummy-SIGRA) as its authors' tournament built it with knocking on: deadwood-minimising
 * draws and discards that look one draw ahead over the unseen cards ("Mmd") and mark down cards that feed
 * the opponent's likely melds ("OpModel"); knocks as soon as it can. The entry has no constructor without
 * arguments, which EntryServer needs; this names the configuration.
 */
public class SigraKnocker extends SIGRA {
    public SigraKnocker() {
        super(false, true, true);
    }
}

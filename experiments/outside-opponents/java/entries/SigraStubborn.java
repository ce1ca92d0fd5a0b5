import sigra.agents.SIGRA;

/**
 * SIGRA (cudy789/gin-rummy-SIGRA), its "stubborn" configuration: the same deadwood-minimising hand building
 * as SigraKnocker, but it knocks only with gin. A constructor without arguments for EntryServer.
 */
public class SigraStubborn extends SIGRA {
    public SigraStubborn() {
        super(true, true, true);
    }
}

import ginrummy.GinRummyGame;
import ginrummy.GinRummyPlayer;

/**
 * Plays a packaged ginbots entry against the challenge's SimpleGinRummyPlayer (or another Java
 * player on the class path) in the challenge's own GinRummyGame, alternating seats, and prints the
 * wins; the check that needs no runner.
 * Usage: java -cp ENGINE_CLASSES:ENTRY_CLASSES EngineMatch GAMES [OPPONENT_CLASS [ENTRY_CLASS]]
 *   (defaults: ginrummy.SimpleGinRummyPlayer, ginbots.GinbotsPlayer)
 */
public class EngineMatch {
    public static void main(String[] args) throws Exception {
        int games = Integer.parseInt(args[0]);
        GinRummyPlayer bot = player(args.length > 2 ? args[2] : "ginbots.GinbotsPlayer");
        GinRummyPlayer opponent = player(args.length > 1 ? args[1] : "ginrummy.SimpleGinRummyPlayer");
        int botWins = 0;
        long start = System.currentTimeMillis();
        for (int i = 0; i < games; i++) {
            boolean botFirst = i % 2 == 0;  // seat 0 or 1 in turn: the engine picks who starts at random
            GinRummyGame game = botFirst ? new GinRummyGame(bot, opponent) : new GinRummyGame(opponent, bot);
            int winner = game.play();
            if ((winner == 0) == botFirst) botWins++;
        }
        System.out.printf("games %d bot wins %d (%.1f%%) in %d ms%n", games, botWins,
            100.0 * botWins / games, System.currentTimeMillis() - start);
    }

    private static GinRummyPlayer player(String className) throws Exception {
        return (GinRummyPlayer) Class.forName(className).getDeclaredConstructor().newInstance();
    }
}

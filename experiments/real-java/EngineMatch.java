import ginrummy.GinRummyGame;
import ginrummy.GinRummyPlayer;
import ginrummy.SimpleGinRummyPlayer;

/**
 * Plays a packaged ginbots entry against the challenge's SimpleGinRummyPlayer in the challenge's
 * own GinRummyGame, alternating seats, and prints the wins; the check that needs no runner.
 * Usage: java -cp ENGINE_CLASSES:ENTRY_CLASSES EngineMatch GAMES
 */
public class EngineMatch {
    public static void main(String[] args) throws Exception {
        int games = Integer.parseInt(args[0]);
        GinRummyPlayer bot = (GinRummyPlayer) Class.forName("ginbots.GinbotsPlayer")
            .getDeclaredConstructor().newInstance();
        GinRummyPlayer simple = new SimpleGinRummyPlayer();
        int botWins = 0;
        long start = System.currentTimeMillis();
        for (int i = 0; i < games; i++) {
            boolean botFirst = i % 2 == 0;  // seat 0 or 1 in turn: the engine picks who starts at random
            GinRummyGame game = botFirst ? new GinRummyGame(bot, simple) : new GinRummyGame(simple, bot);
            int winner = game.play();
            if ((winner == 0) == botFirst) botWins++;
        }
        System.out.printf("games %d bot wins %d (%.1f%%) in %d ms%n", games, botWins,
            100.0 * botWins / games, System.currentTimeMillis() - start);
    }
}

import ginrummy.Card;
import ginrummy.GinRummyPlayer;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;

/**
 * Test driver shaped like a tournament runner: two ginbots entries, each loaded from its own class
 * folder by its own class loader (as vermouth loads file: entries), in one JVM, from whatever working
 * directory the JVM was started in. Each entry must start the bridge named in its own
 * bridge.properties. Plays a few turns of one hand and prints "ok".
 *
 * Usage: java -cp STUB_CLASSES:. TwoEntries FOLDER_A FOLDER_B
 */
public class TwoEntries {
    public static void main(String[] args) throws Exception {
        GinRummyPlayer[] players = new GinRummyPlayer[2];
        for (int i = 0; i < 2; i++) {
            URLClassLoader loader = new URLClassLoader(new URL[]{new File(args[i]).toURI().toURL()},
                    TwoEntries.class.getClassLoader());
            players[i] = (GinRummyPlayer) loader.loadClass("ginbots.GinbotsPlayer").getDeclaredConstructor()
                    .newInstance();
        }
        for (int p = 0; p < 2; p++) {
            Card[] cards = new Card[10];
            for (int c = 0; c < 10; c++) {
                cards[c] = Card.getCard(p * 10 + c);
            }
            players[p].startGame(p, 0, cards);
        }
        boolean take = players[0].willDrawFaceUpCard(Card.getCard(20));
        System.out.println("ok take=" + take);
    }
}

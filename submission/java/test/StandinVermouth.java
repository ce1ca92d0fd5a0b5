import ginrummy.Card;
import ginrummy.GinRummyPlayer;

import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;

/**
 * A stand-in for the vermouth tournament runner's command line, so that the command the docs give an
 * organiser can be run by the tests: it takes vermouth's options (--oneall or --elo, --games N,
 * --agents URL...) and loads each file: agent as vermouth does (the URL's path resolved against the
 * working directory; its folder is the class path, its last segment the dotted class name, loaded by a
 * class loader of its own), builds each player, and deals the first player one hand's first offer
 * against each other player. Prints "ok AGENTS" or fails with the agent it could not load.
 *
 * Usage: java -jar vermouth.jar --oneall --games N --agents 'file:./java/classes/ginbots.GinbotsPlayer' ...
 */
public class StandinVermouth {
    public static void main(String[] args) throws Exception {
        List<String> agents = new ArrayList<>();
        boolean mode = false;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.equals("--oneall") || a.equals("--elo")) {
                mode = true;
            } else if (a.equals("--games")) {
                Integer.parseInt(args[++i]);
            } else if (a.equals("--agents")) {
                while (i + 1 < args.length && !args[i + 1].startsWith("--")) {
                    agents.add(args[++i]);
                }
            } else {
                throw new IllegalArgumentException("unknown option " + a);
            }
        }
        if (!mode || agents.size() < 2) {
            throw new IllegalArgumentException("need --oneall or --elo and at least two --agents");
        }
        List<GinRummyPlayer> players = new ArrayList<>();
        for (String agent : agents) {
            URL url = new URL(agent);
            if (!url.getProtocol().equals("file")) {
                throw new IllegalArgumentException("this stand-in loads file: agents only, got " + agent);
            }
            Path path = Paths.get("").resolve(url.getPath()).toAbsolutePath().normalize();
            URLClassLoader loader = new URLClassLoader(new URL[]{path.getParent().toFile().toURI().toURL()});
            Class<?> cls = loader.loadClass(path.getFileName().toString());
            players.add((GinRummyPlayer) cls.getDeclaredConstructor().newInstance());
        }
        for (int other = 1; other < players.size(); other++) {
            GinRummyPlayer[] seats = {players.get(0), players.get(other)};
            for (int p = 0; p < 2; p++) {
                Card[] cards = new Card[10];
                for (int c = 0; c < 10; c++) {
                    cards[c] = Card.getCard(p * 10 + c);
                }
                seats[p].startGame(p, 0, cards);
            }
            seats[0].willDrawFaceUpCard(Card.getCard(20));
        }
        System.out.println("ok " + agents.size());
    }
}

package ginbots;

import ginrummy.Card;
import ginrummy.GinRummyPlayer;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Serves a challenge entry (any ginrummy.GinRummyPlayer on the class path) over the ginbots bridge
 * protocol (submission/PROTOCOL.md) on stdin/stdout, so that the bundle's runner can play it on its
 * own deals: duplicate, seeded, in a sandbox. One player object lives for the whole process, as in
 * the challenge's GinRummyGame. Each new_game seed reseeds every java.util.Random field the entry
 * holds (its own or static), so a seeded match replays the same games. Anything the entry prints
 * goes to stderr; stdout carries protocol lines only. A failure of the entry ends the session with
 * the protocol's error line and exit code 6.
 * Usage: java -cp ENGINE_CLASSES:ENTRY_CLASSES:SERVER_CLASSES ginbots.EntryServer ENTRY_CLASS
 */
public final class EntryServer {
    private static final int EXIT_MALFORMED = 2;
    private static final int EXIT_BOT_ERROR = 6;
    private final PrintStream out;
    private final GinRummyPlayer entry;
    private final String name;

    private EntryServer(PrintStream out, GinRummyPlayer entry, String name) {
        this.out = out;
        this.entry = entry;
        this.name = name;
    }

    public static void main(String[] args) throws Exception {
        PrintStream protocol = new PrintStream(System.out, true, "UTF-8");
        System.setOut(System.err);  // the entry's own prints must not reach the protocol
        // The challenge's Card has no hashCode of its own: an entry that keeps cards in hash tables iterates
        // them in the order of the JVM's identity hashes. Give every card its hash here, in this thread and
        // in card order, so that an entry that first hashes cards in a parallel stream's threads still sees
        // the same order on every run (without this, six runs of one seed played six different games).
        for (int id = 0; id < 52; id++) {
            System.identityHashCode(Card.getCard(id));
        }
        GinRummyPlayer entry;
        try {
            entry = (GinRummyPlayer) Class.forName(args[0]).getDeclaredConstructor().newInstance();
        } catch (Throwable e) {
            fail(protocol, EXIT_BOT_ERROR, "could not load entry " + (args.length > 0 ? args[0] : "(none named)") + ": " + e);
            return;
        }
        new EntryServer(protocol, entry, args[0]).serve();
    }

    private static void fail(PrintStream protocol, int code, String message) {
        System.err.println("entry server: " + message);
        protocol.println("{\"type\":\"error\",\"code\":" + code + ",\"message\":" + quote(message) + "}");
        System.exit(code);
    }

    private void serve() throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        int number = 0;
        while ((line = in.readLine()) != null) {
            number++;
            Object parsed;
            try {
                parsed = Json.parse(line);
            } catch (RuntimeException e) {  // the little parser's way of saying the line is not JSON
                parsed = null;
            }
            if (!(parsed instanceof Map) || !(((Map<?, ?>) parsed).get("type") instanceof String)) {
                fail(out, EXIT_MALFORMED, "line " + number + " is not a protocol message (a JSON object with a type)");
                return;
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> msg = (Map<String, Object>) parsed;
            String type = (String) msg.get("type");
            if ("bye".equals(type)) {
                return;
            }
            String reply;
            try {
                reply = answer(type, msg);
            } catch (Throwable e) {
                fail(out, EXIT_BOT_ERROR, "entry " + name + " raised " + e + " in " + type);
                return;
            }
            if (reply != null) {
                Object id = msg.get("id");
                String echo = id instanceof String ? quote((String) id) : String.valueOf(id);
                out.println("{" + reply + (id == null ? "" : ",\"id\":" + echo) + "}");
            }
        }
    }

    /** The entry's callback for one message; the reply's fields, or null for a report. */
    private String answer(String type, Map<String, Object> msg) throws Exception {
        switch (type) {
            case "hello":
                return "\"type\":\"hello\",\"protocol\":1,\"bot\":" + quote(name) + ",\"params\":{},\"runtime\":{}";
            case "new_game":
                if (msg.get("seed") != null) {
                    reseed(((Number) msg.get("seed")).longValue());
                }
                return null;
            case "start_hand":
                entry.startGame(seat(msg), ((Number) msg.get("starter")).intValue(),
                    cards(msg.get("hand")).toArray(new Card[0]));
                return null;
            case "will_draw_face_up":
                return "\"type\":\"reply\",\"take\":" + entry.willDrawFaceUpCard(card(msg.get("card")));
            case "report_draw":
                entry.reportDraw(seat(msg), msg.get("card") == null ? null : card(msg.get("card")));
                return null;
            case "get_discard":
                return "\"type\":\"reply\",\"card\":" + entry.getDiscard().getId();
            case "report_discard":
                entry.reportDiscard(seat(msg), card(msg.get("card")));
                return null;
            case "get_melds":
                return "\"type\":\"reply\",\"melds\":" + melds(entry.getFinalMelds());
            case "report_melds":
                ArrayList<ArrayList<Card>> melds = new ArrayList<>();
                for (Object meld : (List<?>) msg.get("melds")) {
                    melds.add(cards(meld));
                }
                entry.reportFinalMelds(seat(msg), melds);
                return null;
            case "report_layoff":
                entry.reportLayoff(seat(msg), card(msg.get("card")), cards(msg.get("meld")));
                return null;
            case "report_final_hand":
                entry.reportFinalHand(seat(msg), cards(msg.get("hand")));
                return null;
            case "report_scores":
                List<?> scores = (List<?>) msg.get("scores");
                entry.reportScores(new int[] {((Number) scores.get(0)).intValue(), ((Number) scores.get(1)).intValue()});
                return null;
            default:
                throw new IllegalArgumentException("unknown message type " + type);
        }
    }

    /** Every java.util.Random the entry's class declares, static or not, reseeded from the game's seed. */
    private void reseed(long seed) throws IllegalAccessException {
        int k = 0;
        for (Class<?> c = entry.getClass(); c != null && c != Object.class; c = c.getSuperclass()) {
            for (Field f : c.getDeclaredFields()) {
                if (Random.class.isAssignableFrom(f.getType())) {
                    f.setAccessible(true);
                    Random r = (Random) f.get(Modifier.isStatic(f.getModifiers()) ? null : entry);
                    if (r != null) {
                        r.setSeed(seed + 0x9E3779B97F4A7C15L * ++k);
                    }
                }
            }
        }
    }

    private static int seat(Map<String, Object> msg) {
        return ((Number) msg.get("seat")).intValue();
    }

    private static Card card(Object id) {
        return Card.getCard(((Number) id).intValue());
    }

    private static ArrayList<Card> cards(Object ids) {
        ArrayList<Card> list = new ArrayList<>();
        for (Object id : (List<?>) ids) {
            list.add(card(id));
        }
        return list;
    }

    private static String melds(ArrayList<ArrayList<Card>> melds) {
        if (melds == null) {
            return "null";
        }
        StringBuilder json = new StringBuilder("[");
        for (ArrayList<Card> meld : melds) {
            json.append(json.length() > 1 ? ",[" : "[");
            for (int i = 0; i < meld.size(); i++) {
                json.append(i > 0 ? "," : "").append(meld.get(i).getId());
            }
            json.append("]");
        }
        return json.append("]").toString();
    }

    private static String quote(String text) {
        StringBuilder q = new StringBuilder("\"");
        for (char ch : text.toCharArray()) {
            if (ch == '"' || ch == '\\') {
                q.append('\\').append(ch);
            } else if (ch < 0x20) {
                q.append(String.format("\\u%04x", (int) ch));
            } else {
                q.append(ch);
            }
        }
        return q.append('"').toString();
    }
}

package ginbots;

import ginrummy.Card;
import ginrummy.GinRummyPlayer;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A challenge player backed by a ginbots bot in a Python process (the bridge protocol,
 * submission/PROTOCOL.md). It starts the bridge once, forwards every callback, checks every
 * answer against the rules, and plays a built-in Simple move instead of an illegal, late or
 * missing answer, so its host never forfeits or crashes because of the Python side.
 *
 * The command comes from the system property {@code ginbots.command}, else the environment
 * variable {@code GINBOTS_COMMAND}, else the file {@code bridge.properties} next to this class
 * (written by {@code ginbots package}: {@code command=} and {@code directory=}, the latter relative
 * to the class's folder; for classes packed in a jar, the folder around the jar that holds the
 * unpacked archive), else {@code python3 -m ginbots.connect.bridge simple}; {@code ginbots.directory} or
 * {@code GINBOTS_DIRECTORY} overrides where it starts. The file makes each packaged
 * entry start its own bot from its own folder, so several entries share one JVM started anywhere.
 * A bridge that cannot start fails the constructor (loudly, before any game; it has {@code ginbots.startup}
 * seconds, default 120, to load the bot and answer hello, since a first start may compile); one that dies later
 * is replaced by the built-in policy, and every game it affects says so on stderr. A decision that
 * times out is abandoned in the bot too: the process is restarted and the hand so far replayed to
 * it, so the next decision starts on time. A game that ends without its scores (a forfeit) is
 * followed by a new_game, so the bot and the time budget start afresh.
 * The per-game thinking budget (default 30 s, property {@code ginbots.budget}) is counted here,
 * where the bridge's time is visible, and sent to the bot as {@code time_left}.
 */
public class GinbotsPlayer implements GinRummyPlayer {
    private static final String END = "\u0000end";
    private static final long MIN_WAIT_NANOS = 50_000_000L;
    /**
     * The least wait for each decision replayed to a restarted bridge: the replay is sent with
     * {@code time_left} 0 (a bot that honours it answers at once, the answers are dropped), yet a
     * short decision timeout must not make a replay fail and cost the bot the rest of the run.
     */
    private static final long REPLAY_WAIT_NANOS = 5_000_000_000L;
    /**
     * How long a restarted bridge has to answer hello. Its first start wrote the bot's compiled
     * kernels to their cache, so a restart loads them (about a second); the first start may have to
     * compile them, which took 22 s on a loaded two-core machine, and waits {@code ginbots.startup}.
     */
    private static final long RESTART_HELLO_NANOS = 30_000_000_000L;
    /**
     * The process's own stderr, where the bridge's messages go too: a runner may point System.err
     * elsewhere while a player runs (vermouth sends it to the game's stream, and closes that after
     * the first game unless verbose), and a fallback must never go unreported.
     */
    private static final PrintStream WARNINGS = new PrintStream(new FileOutputStream(FileDescriptor.err), true);

    private final List<String> command;
    private final java.io.File directory;
    private final double budgetSeconds;
    private final long decisionTimeoutNanos;
    private Process process;
    private BufferedWriter toBridge;
    private BlockingQueue<String> replies = new LinkedBlockingQueue<>();
    private boolean dead;
    private boolean constructed;  // until then a failure is the constructor's exception, not a fallback
    private long nextId;

    private int seat;
    private long hand;
    private int faceUp = -1;
    private boolean tookFaceUp;
    private int takenThisTurn = -1;
    private boolean opponentKnocked;
    private boolean newGame = true;
    private boolean handOpen;
    private boolean restartPending;
    private String deathReason = "";
    private int games;
    private final List<String> gameLog = new ArrayList<>();
    private double usedSeconds;
    private int fallbacks;

    public GinbotsPlayer() {
        this(BridgeLaunch.resolve());
    }

    public GinbotsPlayer(List<String> command) {
        this(new BridgeLaunch(command, null));
    }

    private GinbotsPlayer(BridgeLaunch launch) {
        this.command = new ArrayList<>(launch.command);
        this.directory = launch.directory;
        this.budgetSeconds = Double.parseDouble(System.getProperty("ginbots.budget", "30"));
        this.decisionTimeoutNanos = (long) (Double.parseDouble(System.getProperty("ginbots.decision_timeout", "10"))
                * 1e9);
        start((long) (Double.parseDouble(System.getProperty("ginbots.startup", "120")) * 1e9));
        if (dead) {
            throw new IllegalStateException("ginbots shim: the bridge " + command + " could not start: " + deathReason);
        }
        constructed = true;
    }

    /** How many decisions the built-in policy had to make (illegal, late or missing answers). */
    public int fallbackCount() {
        return fallbacks;
    }

    public boolean bridgeAlive() {
        return !dead;
    }

    /** Starts the bridge and waits up to {@code helloWaitNanos} for its hello (it loads the bot first). */
    private void start(long helloWaitNanos) {
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT);
            if (directory != null) {
                builder.directory(directory);
            }
            process = builder.start();
        } catch (IOException e) {
            die("cannot start " + command + ": " + e.getMessage());
            return;
        }
        toBridge = new BufferedWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8));
        BufferedReader from = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        BlockingQueue<String> queue = new LinkedBlockingQueue<>();  // this process's own: a killed one's end
        replies = queue;                                             // never reaches its successor
        Thread reader = new Thread(() -> {
            try {
                String line;
                while ((line = from.readLine()) != null) {
                    queue.add(line);
                }
            } catch (IOException ignored) {
                // the process is gone: reported below
            }
            queue.add(END);
        }, "ginbots-bridge-reader");
        reader.setDaemon(true);
        reader.start();
        long id = nextId++;
        writeLine("{\"type\":\"hello\",\"protocol\":1,\"id\":" + id + "}");
        Map<String, Object> hello = awaitReply(id, helloWaitNanos);
        if (hello == null || !"hello".equals(hello.get("type"))) {
            die("the bridge did not answer hello" + (hello != null ? ": " + hello.get("message")
                    : " within " + helloWaitNanos / 1e9 + " s (ginbots.startup sets the first start's wait)"));
        } else {
            WARNINGS.println("ginbots shim: bridge ready: bot " + hello.get("bot")
                    + (directory != null ? " in " + directory : ""));
        }
    }

    private void die(String why) {
        if (!dead) {
            deathReason = why;
            if (constructed) {
                WARNINGS.println("ginbots shim: bot unavailable, playing the built-in policy from now on: " + why);
            }
        }
        dead = true;
        if (process != null) {
            process.destroy();
        }
    }

    /**
     * After a timed-out decision: a fresh bridge process that has seen the game so far. The restart
     * and the replay are the bot's time: they count against its budget like any decision.
     */
    private void restart() {
        long began = System.nanoTime();
        restartPending = false;
        if (process != null) {
            process.destroyForcibly();
        }
        start(RESTART_HELLO_NANOS);
        if (dead) {
            usedSeconds += (System.nanoTime() - began) / 1e9;
            return;
        }
        List<String> log = new ArrayList<>(gameLog);
        for (String message : log) {
            if (message.startsWith("?")) {  // a decision: asked again with no time left, its answer dropped
                long id = nextId++;
                writeLine(message.substring(1) + ",\"time_left\":0,\"id\":" + id + "}");
                if (awaitReply(id, Math.max(decisionTimeoutNanos, REPLAY_WAIT_NANOS)) == null) {
                    usedSeconds += (System.nanoTime() - began) / 1e9;
                    die("the restarted bridge timed out again while the hand was replayed to it");
                    return;
                }
            } else {
                writeLine(message);
            }
        }
        double took = (System.nanoTime() - began) / 1e9;
        usedSeconds += took;
        WARNINGS.println("ginbots shim: the bridge was restarted after a timed-out decision (" + log.size()
                + " messages of this hand replayed in " + String.format(java.util.Locale.ROOT, "%.2f", took)
                + " s, counted against the budget)");
    }

    private void send(String json) {
        if (restartPending && !dead) {
            restart();
        }
        if (dead) {
            return;
        }
        gameLog.add(json);
        writeLine(json);
    }

    private void writeLine(String json) {
        if (dead) {
            return;
        }
        try {
            toBridge.write(json);
            toBridge.write('\n');
            toBridge.flush();
        } catch (IOException e) {
            die("writing to the bridge failed: " + e.getMessage());
        }
    }

    /** Sends a decision (an unterminated JSON object) and waits for its reply; null on any failure. */
    private Map<String, Object> ask(String openObject, long waitNanos) {
        if (restartPending && !dead) {
            restart();
        }
        if (dead) {
            return null;
        }
        long start = System.nanoTime();
        gameLog.add("?" + openObject);  // logged without time_left: a replay sends its own
        long id = nextId++;
        writeLine(openObject + timeLeft() + ",\"id\":" + id + "}");
        try {
            Map<String, Object> reply = awaitReply(id, waitNanos);
            if (reply == null && !dead) {
                WARNINGS.println("ginbots shim: no answer within " + waitNanos / 1e9 + " s; playing the built-in "
                        + "move and restarting the bridge");
                restartPending = true;
            }
            return reply;
        } finally {
            usedSeconds += (System.nanoTime() - start) / 1e9;
        }
    }

    /** The reply carrying ``id``, dropping late replies to earlier questions; null past the wait. */
    private Map<String, Object> awaitReply(long id, long waitNanos) {
        long start = System.nanoTime();
        try {
            long deadline = start + waitNanos;
            while (!dead) {
                long left = deadline - System.nanoTime();
                String line = left > 0 ? replies.poll(left, TimeUnit.NANOSECONDS) : null;
                if (line == null) {
                    return null;
                }
                if (END.equals(line)) {
                    die("the bridge process ended" + exitNote());
                    return null;
                }
                Object parsed;
                try {
                    parsed = Json.parse(line);
                } catch (IllegalArgumentException e) {
                    WARNINGS.println("ginbots shim: unreadable answer " + line);
                    return null;
                }
                if (parsed instanceof Map) {
                    @SuppressWarnings("unchecked")
                    Map<String, Object> reply = (Map<String, Object>) parsed;
                    Object got = reply.get("id");
                    if (got instanceof Long && (Long) got == id) {
                        return reply;
                    }
                    if (got == null && "error".equals(reply.get("type"))) {
                        die("the bridge stopped: " + reply.get("message"));  // its last line, then it exits
                        return null;
                    }
                }
                // a late answer to an earlier question: drop it
            }
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    private String exitNote() {
        try {
            if (process != null && process.waitFor(1, TimeUnit.SECONDS)) {
                return " (exit code " + process.exitValue() + ")";
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return "";
    }

    private long waitBudget() {
        double left = budgetSeconds - usedSeconds - 0.5;
        return Math.max(MIN_WAIT_NANOS, Math.min(decisionTimeoutNanos, (long) (left * 1e9)));
    }

    private String timeLeft() {
        return ",\"time_left\":" + String.format(java.util.Locale.ROOT, "%.3f", Math.max(0, budgetSeconds - usedSeconds));
    }

    private void fallback(String what) {
        fallbacks++;
        WARNINGS.println("ginbots shim: " + what + "; playing the built-in move");
    }

    private static String ids(long mask) {
        StringBuilder out = new StringBuilder("[");
        for (int c = 0; c < 52; c++) {
            if ((mask >> c & 1L) != 0) {
                out.append(out.length() > 1 ? "," : "").append(c);
            }
        }
        return out.append(']').toString();
    }

    private static long mask(Iterable<Card> cards) {
        long m = 0;
        for (Card c : cards) {
            m |= 1L << c.getId();
        }
        return m;
    }

    // --- the challenge's callbacks ---------------------------------------------------------

    @Override
    public void startGame(int playerNum, int startingPlayerNum, Card[] cards) {
        if (handOpen) {
            // The last hand never got its scores: its game ended early (a forfeit), so this is a new game.
            newGame = true;
        }
        handOpen = true;
        gameLog.clear();  // a restarted bridge is given a new game and this hand so far
        if (newGame) {
            games++;
            send("{\"type\":\"new_game\",\"seed\":null}");
            usedSeconds = 0;
            newGame = false;
            if (dead) {
                WARNINGS.println("ginbots shim: game " + games + " is played by the built-in policy: the bridge "
                        + "is down (" + deathReason + ")");
            }
        }
        if (gameLog.isEmpty()) {
            gameLog.add("{\"type\":\"new_game\",\"seed\":null}");
        }
        seat = playerNum;
        hand = mask(Arrays.asList(cards));
        faceUp = -1;
        takenThisTurn = -1;
        opponentKnocked = false;
        send("{\"type\":\"start_hand\",\"seat\":" + playerNum + ",\"starter\":" + startingPlayerNum
                + ",\"hand\":" + ids(hand) + "}");
    }

    @Override
    public boolean willDrawFaceUpCard(Card card) {
        faceUp = card.getId();
        Map<String, Object> reply = ask("{\"type\":\"will_draw_face_up\",\"card\":" + faceUp, waitBudget());
        Object take = reply == null ? null : reply.get("take");
        if (!(take instanceof Boolean)) {
            fallback("no usable answer to the face-up offer of " + card);
            take = FallbackPolicy.takeFaceUp(hand, faceUp);
        }
        tookFaceUp = (Boolean) take;
        return tookFaceUp;
    }

    @Override
    public void reportDraw(int playerNum, Card drawnCard) {
        if (playerNum == seat && drawnCard != null) {
            hand |= 1L << drawnCard.getId();
            takenThisTurn = tookFaceUp && drawnCard.getId() == faceUp ? faceUp : -1;
            tookFaceUp = false;
        }
        send("{\"type\":\"report_draw\",\"seat\":" + playerNum + ",\"card\":"
                + (drawnCard == null ? "null" : String.valueOf(drawnCard.getId())) + "}");
    }

    @Override
    public Card getDiscard() {
        Map<String, Object> reply = ask("{\"type\":\"get_discard\"", waitBudget());
        Object card = reply == null ? null : reply.get("card");
        int id = card instanceof Long ? (int) (long) (Long) card : -1;
        if (id < 0 || id > 51 || (hand >> id & 1L) == 0 || id == takenThisTurn) {
            fallback(reply == null ? "no discard answer" : "illegal discard " + reply);
            id = FallbackPolicy.discard(hand, takenThisTurn);
        }
        return Card.getCard(id);
    }

    @Override
    public void reportDiscard(int playerNum, Card discardedCard) {
        if (playerNum == seat) {
            hand &= ~(1L << discardedCard.getId());
            takenThisTurn = -1;
        }
        send("{\"type\":\"report_discard\",\"seat\":" + playerNum + ",\"card\":" + discardedCard.getId() + "}");
    }

    @Override
    public ArrayList<ArrayList<Card>> getFinalMelds() {
        Map<String, Object> reply = ask("{\"type\":\"get_melds\",\"opponent_knocked\":" + opponentKnocked,
                waitBudget());
        List<Long> melds = reply == null ? null : checkedMelds(reply);
        if (reply == null || (melds == null && (opponentKnocked || reply.get("melds") != null))) {
            fallback(reply == null ? "no meld answer" : "illegal melds " + reply);
            melds = FallbackPolicy.melds(hand, opponentKnocked);
        }
        return melds == null ? null : toCards(melds);
    }

    /** Meld masks as the challenge's lists of canonical Card objects. */
    public static ArrayList<ArrayList<Card>> toCards(List<Long> melds) {
        ArrayList<ArrayList<Card>> out = new ArrayList<>();
        for (long m : melds) {
            ArrayList<Card> meld = new ArrayList<>();
            for (int c = 0; c < 52; c++) {
                if ((m >> c & 1L) != 0) {
                    meld.add(Card.getCard(c));
                }
            }
            out.add(meld);
        }
        return out;
    }

    /** The reply's melds if legal (legal melds, in hand, disjoint; deadwood <= 10 for a knock), else null. */
    private List<Long> checkedMelds(Map<String, Object> reply) {
        Object value = reply.get("melds");
        if (!(value instanceof List)) {
            return null;
        }
        List<Long> out = new ArrayList<>();
        long used = 0;
        for (Object meld : (List<?>) value) {
            if (!(meld instanceof List)) {
                return null;
            }
            long m = 0;
            for (Object c : (List<?>) meld) {
                if (!(c instanceof Long) || (Long) c < 0 || (Long) c > 51) {
                    return null;
                }
                m |= 1L << (Long) c;
            }
            if (!Melds.isMeld(m) || (m & ~hand) != 0 || (m & used) != 0 || Long.bitCount(m) != ((List<?>) meld).size()) {
                return null;
            }
            used |= m;
            out.add(m);
        }
        if (!opponentKnocked && Melds.points(hand & ~used) > 10) {
            return null;
        }
        return out;
    }

    @Override
    public void reportFinalMelds(int playerNum, ArrayList<ArrayList<Card>> melds) {
        if (playerNum != seat) {
            opponentKnocked = true;
        }
        StringBuilder json = new StringBuilder("[");
        for (ArrayList<Card> meld : melds) {
            json.append(json.length() > 1 ? "," : "").append(ids(mask(meld)));
        }
        send("{\"type\":\"report_melds\",\"seat\":" + playerNum + ",\"melds\":" + json + "]}");
    }

    @Override
    public void reportScores(int[] scores) {
        handOpen = false;
        send("{\"type\":\"report_scores\",\"scores\":[" + scores[0] + "," + scores[1] + "]}");
        if (scores[0] >= 100 || scores[1] >= 100) {
            newGame = true;
        }
    }

    @Override
    public void reportLayoff(int playerNum, Card layoffCard, ArrayList<Card> opponentMeld) {
        send("{\"type\":\"report_layoff\",\"seat\":" + playerNum + ",\"card\":" + layoffCard.getId() + ",\"meld\":"
                + ids(mask(opponentMeld)) + "}");
    }

    @Override
    public void reportFinalHand(int playerNum, ArrayList<Card> finalHand) {
        send("{\"type\":\"report_final_hand\",\"seat\":" + playerNum + ",\"hand\":" + ids(mask(finalHand)) + "}");
    }

    /** Ends the bridge process (the tournament runner never calls this; the JVM exit does the same). */
    public void close() {
        send("{\"type\":\"bye\"}");
        if (process != null) {
            process.destroy();
        }
    }
}

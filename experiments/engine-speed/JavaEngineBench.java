import ginrummy.Card;
import ginrummy.GinRummyGame;
import ginrummy.SimpleGinRummyPlayer;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/**
 * Simple against Simple in the challenge's own GinRummyGame, timed in rounds on request, so that a
 * driver can interleave it with the ginbots engine on one core: each line "run SECONDS" on stdin plays
 * games for that much of this thread's CPU time and answers "hands H cpu_s S"; "quit" ends it.
 * Usage: java -cp ENGINE_CLASSES:. JavaEngineBench   (experiments/engine-speed/java_vs_python.py drives it)
 */
public class JavaEngineBench {
    /** Simple, counting the hands it is dealt (one startGame a hand). */
    static final class CountingSimple extends SimpleGinRummyPlayer {
        long hands;

        @Override
        public void startGame(int playerNum, int startingPlayerNum, Card[] cards) {
            hands++;
            super.startGame(playerNum, startingPlayerNum, cards);
        }
    }

    public static void main(String[] args) throws Exception {
        GinRummyGame.setPlayVerbose(false);
        ThreadMXBean bean = ManagementFactory.getThreadMXBean();
        CountingSimple a = new CountingSimple();
        SimpleGinRummyPlayer b = new SimpleGinRummyPlayer();
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        String line;
        while ((line = in.readLine()) != null) {
            String[] words = line.trim().split("\\s+");
            if (words[0].equals("quit")) {
                return;
            }
            double seconds = Double.parseDouble(words[1]);
            long start = bean.getCurrentThreadCpuTime();
            long before = a.hands;
            long limit = start + (long) (seconds * 1e9);
            while (bean.getCurrentThreadCpuTime() < limit) {
                new GinRummyGame(a, b).play();
            }
            double used = (bean.getCurrentThreadCpuTime() - start) / 1e9;
            System.out.println("hands " + (a.hands - before) + " cpu_s " + used);
            System.out.flush();
        }
    }
}

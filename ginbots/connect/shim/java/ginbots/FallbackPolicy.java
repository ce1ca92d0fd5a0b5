package ginbots;

import java.util.List;

/**
 * The shim's built-in play when the bot cannot answer legally in time: the challenge's Simple
 * strategy (take a face-up card that melds, throw the card leaving least deadwood, knock at 10 or less).
 */
public final class FallbackPolicy {
    private FallbackPolicy() {
    }

    public static boolean takeFaceUp(long hand, int card) {
        return Melds.completesMeld(card, hand);
    }

    /** The legal discard (not {@code forbidden}) leaving the least deadwood; ties: the higher card id. */
    public static int discard(long hand, int forbidden) {
        int best = -1;
        int bestDeadwood = Integer.MAX_VALUE;
        for (int c = 51; c >= 0; c--) {
            if ((hand >> c & 1L) == 0 || c == forbidden) {
                continue;
            }
            int dw = Melds.deadwood(hand & ~(1L << c));
            if (dw < bestDeadwood) {
                bestDeadwood = dw;
                best = c;
            }
        }
        return best;
    }

    /** Melds to knock with (deadwood at most 10), melds to declare after a knock, or null. */
    public static List<Long> melds(long hand, boolean opponentKnocked) {
        List<Long> best = Melds.bestMeldSet(hand);
        long covered = 0;
        for (long m : best) {
            covered |= m;
        }
        if (!opponentKnocked && Melds.points(hand & ~covered) > 10) {
            return null;
        }
        return best;
    }
}

package ginbots;

import java.util.ArrayList;
import java.util.List;

/** Card-set arithmetic for the shim's checks and fallback play: hands are 52-bit longs, card id = suit*13+rank. */
public final class Melds {
    private Melds() {
    }

    public static int points(int card) {
        return Math.min(card % 13 + 1, 10);
    }

    public static int points(long cards) {
        int total = 0;
        for (int c = 0; c < 52; c++) {
            if ((cards >> c & 1L) != 0) {
                total += points(c);
            }
        }
        return total;
    }

    /** A legal set (3-4 cards of a rank) or run (3+ consecutive ranks of a suit; ace low only). */
    public static boolean isMeld(long mask) {
        int n = Long.bitCount(mask);
        if (n < 3) {
            return false;
        }
        int low = Long.numberOfTrailingZeros(mask);
        int rank = low % 13;
        boolean sameRank = true;
        for (int c = 0; c < 52; c++) {
            if ((mask >> c & 1L) != 0 && c % 13 != rank) {
                sameRank = false;
            }
        }
        if (sameRank) {
            return n <= 4;
        }
        long run = ((1L << n) - 1) << low;
        return run == mask && rank + n <= 13;
    }

    /** Every meld contained in {@code hand}. */
    public static List<Long> meldsIn(long hand) {
        List<Long> out = new ArrayList<>();
        for (int suit = 0; suit < 4; suit++) {
            for (int start = 0; start < 13; start++) {
                long run = 0;
                for (int r = start; r < 13; r++) {
                    int c = suit * 13 + r;
                    if ((hand >> c & 1L) == 0) {
                        break;
                    }
                    run |= 1L << c;
                    if (r - start >= 2) {
                        out.add(run);
                    }
                }
            }
        }
        for (int rank = 0; rank < 13; rank++) {
            long all = 0;
            for (int suit = 0; suit < 4; suit++) {
                int c = suit * 13 + rank;
                if ((hand >> c & 1L) != 0) {
                    all |= 1L << c;
                }
            }
            int n = Long.bitCount(all);
            if (n >= 3) {
                out.add(all);
            }
            if (n == 4) {
                for (int suit = 0; suit < 4; suit++) {
                    out.add(all & ~(1L << (suit * 13 + rank)));
                }
            }
        }
        return out;
    }

    /** A meld set leaving the least deadwood (search over disjoint melds; hands here hold at most 11 cards). */
    public static List<Long> bestMeldSet(long hand) {
        List<Long> melds = meldsIn(hand);
        List<Long> best = new ArrayList<>();
        int[] bestDeadwood = {points(hand)};
        search(hand, melds, 0, 0L, new ArrayList<>(), best, bestDeadwood);
        return best;
    }

    private static void search(long hand, List<Long> melds, int from, long used, List<Long> chosen,
                               List<Long> best, int[] bestDeadwood) {
        int deadwood = points(hand & ~used);
        if (deadwood < bestDeadwood[0]) {
            bestDeadwood[0] = deadwood;
            best.clear();
            best.addAll(chosen);
        }
        for (int i = from; i < melds.size(); i++) {
            long m = melds.get(i);
            if ((m & used) == 0) {
                chosen.add(m);
                search(hand, melds, i + 1, used | m, chosen, best, bestDeadwood);
                chosen.remove(chosen.size() - 1);
            }
        }
    }

    public static int deadwood(long hand) {
        long covered = 0;
        for (long m : bestMeldSet(hand)) {
            covered |= m;
        }
        return points(hand & ~covered);
    }

    /** Whether {@code card} joins some meld of {@code hand} plus the card. */
    public static boolean completesMeld(int card, long hand) {
        for (long m : meldsIn(hand | 1L << card)) {
            if ((m >> card & 1L) != 0) {
                return true;
            }
        }
        return false;
    }
}

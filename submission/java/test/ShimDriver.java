import ginbots.FallbackPolicy;
import ginbots.GinbotsPlayer;
import ginbots.Melds;
import ginrummy.Card;
import ginrummy.GinRummyPlayer;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Test driver: plays hands between the shim (seat 0, backed by a Python bridge) and a Java Simple
 * player (seat 1) with the challenge's turn protocol, checking every answer of the shim against
 * the rules. Exits 1 on the first illegal answer, 0 otherwise, and prints a summary line.
 *
 * Usage: java ShimDriver HANDS COMMAND...  (COMMAND "-" builds the shim with its no-argument constructor;
 * -Dforfeit=true ends every hand after four turns without scores, as an opponent's forfeit does;
 * -Dsilence=true points System.err at nothing once the shim is built, as vermouth does while a player runs)
 */
public class ShimDriver {
    /** Seat 1: the built-in policy on a tracked hand. */
    static final class JavaSimple implements GinRummyPlayer {
        int seat;
        long hand;
        int faceUp = -1;
        int taken = -1;
        boolean tookFaceUp;
        boolean opponentKnocked;

        public void startGame(int playerNum, int startingPlayerNum, Card[] cards) {
            seat = playerNum;
            hand = 0;
            for (Card c : cards) {
                hand |= 1L << c.getId();
            }
            opponentKnocked = false;
        }

        public boolean willDrawFaceUpCard(Card card) {
            faceUp = card.getId();
            tookFaceUp = FallbackPolicy.takeFaceUp(hand, faceUp);
            return tookFaceUp;
        }

        public void reportDraw(int playerNum, Card drawnCard) {
            if (playerNum == seat) {
                hand |= 1L << drawnCard.getId();
                taken = tookFaceUp && drawnCard.getId() == faceUp ? faceUp : -1;
                tookFaceUp = false;
            }
        }

        public Card getDiscard() {
            return Card.getCard(FallbackPolicy.discard(hand, taken));
        }

        public void reportDiscard(int playerNum, Card discardedCard) {
            if (playerNum == seat) {
                hand &= ~(1L << discardedCard.getId());
            }
        }

        public ArrayList<ArrayList<Card>> getFinalMelds() {
            List<Long> melds = FallbackPolicy.melds(hand, opponentKnocked);
            return melds == null ? null : GinbotsPlayer.toCards(melds);
        }

        public void reportFinalMelds(int playerNum, ArrayList<ArrayList<Card>> melds) {
            if (playerNum != seat) {
                opponentKnocked = true;
            }
        }

        public void reportScores(int[] scores) {
        }

        public void reportLayoff(int playerNum, Card layoffCard, ArrayList<Card> opponentMeld) {
        }

        public void reportFinalHand(int playerNum, ArrayList<Card> hand) {
        }
    }

    static long mask(List<Card> cards) {
        long m = 0;
        for (Card c : cards) {
            m |= 1L << c.getId();
        }
        return m;
    }

    static void fail(String why) {
        System.out.println("ILLEGAL: " + why);
        System.exit(1);
    }

    /** Checks a declaration; returns the covered cards. */
    static long check(ArrayList<ArrayList<Card>> melds, long hand, String who) {
        long used = 0;
        for (ArrayList<Card> meld : melds) {
            for (Card c : meld) {
                if (c != Card.getCard(c.getId())) {
                    fail(who + " returned a non-canonical Card object");
                }
            }
            long m = mask(meld);
            if (!Melds.isMeld(m) || (m & ~hand) != 0 || (m & used) != 0 || Long.bitCount(m) != meld.size()) {
                fail(who + " declared an illegal meld " + meld);
            }
            used |= m;
        }
        return used;
    }

    public static void main(String[] args) {
        int hands = Integer.parseInt(args[0]);
        boolean forfeits = Boolean.getBoolean("forfeit");
        GinbotsPlayer shim;
        try {
            shim = args.length > 1 && args[1].equals("-") ? new GinbotsPlayer()
                    : new GinbotsPlayer(Arrays.asList(args).subList(1, args.length));
        } catch (IllegalStateException e) {
            System.out.println("CONSTRUCTION FAILED: " + e.getMessage());
            System.exit(3);
            return;
        }
        if (Boolean.getBoolean("silence")) {
            System.setErr(new PrintStream(new OutputStream() {
                @Override
                public void write(int b) {
                }
            }));
        }
        GinRummyPlayer[] players = {shim, new JavaSimple()};
        Random random = new Random(42);
        int[] scores = {0, 0};
        int knocks = 0;
        int cancelled = 0;
        for (int h = 0; h < hands; h++) {
            int starter = h % 2;
            List<Card> deck = new ArrayList<>();
            for (int c = 0; c < 52; c++) {
                deck.add(Card.getCard(c));
            }
            Collections.shuffle(deck, new Random(random.nextInt()));
            long[] held = {0, 0};
            for (int i = 0; i < 20; i++) {
                held[i % 2] |= 1L << deck.remove(deck.size() - 1).getId();
            }
            for (int p = 0; p < 2; p++) {
                ArrayList<Card> cards = new ArrayList<>();
                for (int c = 0; c < 52; c++) {
                    if ((held[p] >> c & 1L) != 0) {
                        cards.add(Card.getCard(c));
                    }
                }
                players[p].startGame(p, starter, cards.toArray(new Card[0]));
            }
            List<Card> pile = new ArrayList<>();
            pile.add(deck.remove(deck.size() - 1));
            Card first = pile.get(0);
            int cur = starter;
            int turns = 0;
            ArrayList<ArrayList<Card>> knock = null;
            boolean abandoned = false;
            while (deck.size() > 2) {
                if (forfeits && turns >= 4) {
                    abandoned = true;  // the opponent forfeits: the game ends here, no scores
                    break;
                }
                Card top = pile.get(pile.size() - 1);
                boolean take = false;
                if (!(turns == 2 && top == first)) {
                    take = players[cur].willDrawFaceUpCard(top);
                }
                if (!take && turns < 2 && top == first) {
                    turns++;
                    cur ^= 1;
                    continue;
                }
                Card drawn = take ? pile.remove(pile.size() - 1) : deck.remove(deck.size() - 1);
                held[cur] |= 1L << drawn.getId();
                for (int p = 0; p < 2; p++) {
                    players[p].reportDraw(cur, p == cur || take ? drawn : null);
                }
                Card out = players[cur].getDiscard();
                if (out == null || out != Card.getCard(out.getId()) || (held[cur] >> out.getId() & 1L) == 0
                        || (take && out == drawn)) {
                    fail("seat " + cur + " discarded " + out + " illegally");
                }
                held[cur] &= ~(1L << out.getId());
                for (int p = 0; p < 2; p++) {
                    players[p].reportDiscard(cur, out);
                }
                pile.add(out);
                knock = players[cur].getFinalMelds();
                if (knock != null) {
                    break;
                }
                turns++;
                cur ^= 1;
            }
            if (abandoned) {
                continue;
            }
            if (knock == null) {
                cancelled++;
            } else {
                knocks++;
                int opp = cur ^ 1;
                long covered = check(knock, held[cur], "seat " + cur);
                int knockerDeadwood = Melds.points(held[cur] & ~covered);
                if (knockerDeadwood > 10) {
                    fail("seat " + cur + " knocked with deadwood " + knockerDeadwood);
                }
                for (int p = 0; p < 2; p++) {
                    players[p].reportFinalMelds(cur, knock);
                }
                ArrayList<ArrayList<Card>> defence = players[opp].getFinalMelds();
                if (defence == null) {
                    fail("seat " + opp + " declared nothing after a knock");
                }
                long unmelded = held[opp] & ~check(defence, held[opp], "seat " + opp);
                for (int p = 0; p < 2; p++) {
                    players[p].reportFinalMelds(opp, defence);
                }
                int defenderDeadwood = Melds.points(unmelded);
                int points = knockerDeadwood == 0 ? 25 + defenderDeadwood
                        : knockerDeadwood < defenderDeadwood ? defenderDeadwood - knockerDeadwood
                        : 25 + knockerDeadwood - defenderDeadwood;
                scores[knockerDeadwood == 0 || knockerDeadwood < defenderDeadwood ? cur : opp] += points;
            }
            for (int p = 0; p < 2; p++) {
                for (int q = 0; q < 2; q++) {
                    ArrayList<Card> cards = new ArrayList<>();
                    for (int c = 0; c < 52; c++) {
                        if ((held[q] >> c & 1L) != 0) {
                            cards.add(Card.getCard(c));
                        }
                    }
                    players[p].reportFinalHand(q, cards);
                }
                players[p].reportScores(scores.clone());
            }
        }
        shim.close();
        System.out.println("hands=" + hands + " knocks=" + knocks + " cancelled=" + cancelled + " scores="
                + scores[0] + "-" + scores[1] + " fallbacks=" + shim.fallbackCount() + " alive=" + shim.bridgeAlive());
    }
}

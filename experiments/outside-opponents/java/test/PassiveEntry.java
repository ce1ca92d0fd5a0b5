import ginrummy.Card;
import ginrummy.GinRummyPlayer;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Test entries for EntryServer, written as challenge entries are (the default package, only the
 * ginrummy interface). PassiveEntry mirrors tests/helpers.py's Passive: never takes the face-up card,
 * discards what it drew, never knocks, declares no melds when the opponent knocks.
 */
public class PassiveEntry implements GinRummyPlayer {
    protected int seat;
    protected boolean opponentKnocked;
    protected final ArrayList<Card> hand = new ArrayList<>();
    protected Card drawn;

    @Override
    public void startGame(int playerNum, int startingPlayerNum, Card[] cards) {
        seat = playerNum;
        opponentKnocked = false;
        hand.clear();
        for (Card c : cards) {
            hand.add(c);
        }
    }

    @Override
    public boolean willDrawFaceUpCard(Card card) {
        return false;
    }

    @Override
    public void reportDraw(int playerNum, Card drawnCard) {
        if (playerNum == seat) {
            drawn = drawnCard;
            hand.add(drawnCard);
        }
    }

    @Override
    public Card getDiscard() {
        return drawn;
    }

    @Override
    public void reportDiscard(int playerNum, Card discardedCard) {
        if (playerNum == seat) {
            hand.remove(discardedCard);
        }
    }

    @Override
    public ArrayList<ArrayList<Card>> getFinalMelds() {
        return opponentKnocked ? new ArrayList<ArrayList<Card>>() : null;
    }

    @Override
    public void reportFinalMelds(int playerNum, ArrayList<ArrayList<Card>> melds) {
        if (playerNum != seat) {
            opponentKnocked = true;
        }
    }

    @Override
    public void reportScores(int[] scores) {
    }

    @Override
    public void reportLayoff(int playerNum, Card layoffCard, ArrayList<Card> opponentMeld) {
    }

    @Override
    public void reportFinalHand(int playerNum, ArrayList<Card> hand) {
    }

    /** Discards a card of its hand at random, with its own unseeded Random, as many entries do. */
    public static class RandomEntry extends PassiveEntry {
        private final Random random = new Random();

        @Override
        public Card getDiscard() {
            return hand.get(random.nextInt(hand.size()));
        }
    }

    /**
     * Discards the first card of its hand in a hash set's order, the set built by a parallel stream, as
     * entries that keep cards in hash tables do: the challenge's Card has no hashCode of its own, so the
     * order is that of the JVM's identity hashes, which the stream's threads would otherwise hand out.
     */
    public static class HashOrderEntry extends PassiveEntry {
        @Override
        public Card getDiscard() {
            Set<Card> cards = hand.parallelStream().collect(Collectors.toCollection(HashSet::new));
            return cards.iterator().next();  // it never takes the face-up card: any is legal
        }
    }

    /** Fails at its first discard, as a broken entry would. */
    public static class BrokenEntry extends PassiveEntry {
        @Override
        public Card getDiscard() {
            throw new IllegalStateException("no discard here");
        }
    }
}

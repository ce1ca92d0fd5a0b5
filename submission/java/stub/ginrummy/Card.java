package ginrummy;

/**
 * Interface-only stand-in for the challenge's ginrummy.Card, written for compiling and testing the
 * shim: the 52 canonical card objects (the engine compares cards by identity), id = suit * 13 + rank.
 */
public class Card {
    public static final String RANK_NAMES = "A23456789TJQK";
    public static final String SUIT_NAMES = "CHSD";
    private static final Card[] ALL = new Card[52];

    static {
        for (int id = 0; id < 52; id++) {
            ALL[id] = new Card(id % 13, id / 13);
        }
    }

    public final int rank;
    public final int suit;

    private Card(int rank, int suit) {
        this.rank = rank;
        this.suit = suit;
    }

    public static Card getCard(int id) {
        return ALL[id];
    }

    public static Card getCard(int rank, int suit) {
        return ALL[suit * 13 + rank];
    }

    public int getId() {
        return suit * 13 + rank;
    }

    public int getRank() {
        return rank;
    }

    public int getSuit() {
        return suit;
    }

    @Override
    public String toString() {
        return "" + RANK_NAMES.charAt(rank) + SUIT_NAMES.charAt(suit);
    }
}

package ginrummy;

import java.util.ArrayList;

/** Stand-in for the challenge's SimpleGinRummyPlayer, as a vermouth agent of the docs' command: it only
 * needs to load and answer (StandinVermouth deals one offer). */
public class SimpleGinRummyPlayer implements GinRummyPlayer {
    public void startGame(int playerNum, int startingPlayerNum, Card[] cards) { }
    public boolean willDrawFaceUpCard(Card card) { return false; }
    public void reportDraw(int playerNum, Card drawnCard) { }
    public Card getDiscard() { return null; }
    public void reportDiscard(int playerNum, Card discardedCard) { }
    public ArrayList<ArrayList<Card>> getFinalMelds() { return null; }
    public void reportFinalMelds(int playerNum, ArrayList<ArrayList<Card>> melds) { }
    public void reportScores(int[] scores) { }
    public void reportLayoff(int playerNum, Card layoffCard, ArrayList<Card> opponentMeld) { }
    public void reportFinalHand(int playerNum, ArrayList<Card> hand) { }
}

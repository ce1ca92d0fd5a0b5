"""The game wing, the ground floor: the rules of EAAI Gin Rummy and the engine that plays them.

Cards are ints 0-51 and card sets 52-bit ints (``cards``); ``melds`` finds minimum deadwood and
meld sets; ``rules`` holds the rules as pure functions, ``state`` as a steppable state (the one
place they are applied), ``engine`` drives callback players over that state exactly as the
challenge's ``GinRummyGame`` does; ``javarandom`` ports ``java.util.Random`` and the challenge's
shuffle; ``knowledge`` tracks what one seat has seen; ``tactics`` chooses melds at a hand's end.

Imports: nothing else of ginbots (``tests/test_architecture.py`` checks it).
"""

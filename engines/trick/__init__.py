"""The trick-taking family (升级 / 欢乐升级, 打滚子): what its games share, written once.

``cards``: the 1–3-deck cards as face numbers, their notation, the deal, level names and the
trump order of one hand (``Context``); ``hand``: the hand's state both games keep alike (the
claim windows of the deal and the kitty, worked out once per state change, the packets,
reading a play, closing a trick, the seats' lines and the view, the result) and the trustee's
bury; ``seen``: what a seat has seen played; ``texts``: the texts both catalogues merge. A
game of the family imports these, never another game's package (tests/engines/test_families.py);
what only one game does (升级's tractors and 甩牌, 打滚子's 棒子/滚子 and 进贡) stays in its package.
"""

"""The climbing family (百变双扣, 够级 / 新够级): what its games share, written once.

``notation``: the rank-only cards of several decks (15 counts ``3456789TJQKA2BR``), their
parsing and canonical text, the deal, the picker tokens and the card-reading texts every
climbing catalogue merges (``CLIMB_TEXTS``). A game of the family imports these, never another
game's package (tests/engines/test_families.py); what only one game does (双扣's 变 and stars,
够级's 够级牌, 烧 and 革命) stays in its package.
"""

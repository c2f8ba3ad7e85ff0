"""--import-mode=importlib: make the mahjong test helpers (mj_support) importable."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

"""网页牌桌: the web table beside the chat (docs/web.md).

An aiohttp server on the bot's own event loop (``server.WebServer``) serves a seat page per
signed link (``tokens``), a spectator page, the replay page of a finished hand and a server's
leaderboard. Every page action goes through ``TableManager.act`` like a click in Discord; the
pages follow the tables through ``hub.WebHub``, a notifier beside the platform's own. What a
page shows is built in ``bot.render.web`` from the game interface alone: no game is named here.
"""

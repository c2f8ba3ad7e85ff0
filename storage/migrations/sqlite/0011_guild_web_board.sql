-- 网页排行榜: 1 when the server's moderators turned its leaderboard page on (/settings
-- leaderboard); off by default.
ALTER TABLE guilds ADD COLUMN web_board INTEGER NOT NULL DEFAULT 0;

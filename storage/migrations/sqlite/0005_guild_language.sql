-- A server's language for public table messages, set with /mod language ("zh-CN", "en-US");
-- NULL: the server's preferred locale, then the hall's default.
ALTER TABLE guilds ADD COLUMN language TEXT;

-- 0008: the per-person choice of pictures (card, tile and table images) or text only, for
-- screen readers and slow links; pictures are on unless turned off (/settings images).
ALTER TABLE preferences ADD COLUMN images INTEGER NOT NULL DEFAULT 1 CHECK (images IN (0, 1));

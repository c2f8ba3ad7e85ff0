"""The Discord bot and the platform-neutral table host."""

"""Pure game engines: rules, notation, scoring and trustee play. No I/O, no asyncio."""

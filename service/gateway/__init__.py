"""Transports only: asyncio TCP listeners and aiohttp HTTP + WebSocket."""

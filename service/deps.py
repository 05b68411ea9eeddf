"""Named dependencies: handlers declare what they need and read like plain functions.

They are `async def` although they only read attributes: FastAPI runs a plain `def` dependency in its thread pool,
so each request paid a round trip to a pool thread and back to the event loop before the handler ran: measured
0.2 ms of a fresh /v1/ask on a quiet machine, 2.0-2.4 ms with every core busy (benchmarks/service_layers.py)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from kb.engine import Engine
from kb.settings import Settings
from service.state import AppState


async def get_state(request: Request) -> AppState:
    state: AppState = request.app.state.kb
    return state


async def get_settings(state: Annotated[AppState, Depends(get_state)]) -> Settings:
    return state.settings


async def get_engine(state: Annotated[AppState, Depends(get_state)]) -> Engine:
    """The loaded engine; 503 with Retry-After while the index is loading (NotReady's handler)."""
    return state.require_engine()


StateDep = Annotated[AppState, Depends(get_state)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
EngineDep = Annotated[Engine, Depends(get_engine)]

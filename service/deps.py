"""Named dependencies: handlers declare what they need and read like plain functions."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from kb.engine import Engine
from kb.settings import Settings
from service.state import AppState


def get_state(request: Request) -> AppState:
    state: AppState = request.app.state.kb
    return state


def get_settings(state: Annotated[AppState, Depends(get_state)]) -> Settings:
    return state.settings


def get_engine(state: Annotated[AppState, Depends(get_state)]) -> Engine:
    """The loaded engine; 503 with Retry-After while the index is loading (NotReady's handler)."""
    return state.require_engine()


StateDep = Annotated[AppState, Depends(get_state)]
SettingsDep = Annotated[Settings, Depends(get_settings)]
EngineDep = Annotated[Engine, Depends(get_engine)]

"""`leadtui auth status [--json]`: the profile as resolved (where each value comes from), the
key masked, the spend policy, and whether the key works (GET /me)."""

from __future__ import annotations

import argparse
import json
import shlex
from typing import Any, TextIO

import httpx
from pydantic import SecretStr

from leadtui.api.client import LeadClient
from leadtui.api.errors import ApiError, ConfigurationError, LeadError
from leadtui.api.models import Identity
from leadtui.cli.exit_codes import Exit
from leadtui.cli.failures import from_lead_error
from leadtui.config.profile import ResolvedProfile, resolve_profile
from leadtui.config.secrets import KeySource, KeyStore
from leadtui.config.variables import API_KEY_ENV, BASE_URL_ENV


def status(
    ns: argparse.Namespace,
    out: TextIO,
    store: KeyStore,
    transport: httpx.AsyncBaseTransport | None,
) -> int:
    """Print the status (text, or one JSON document with --json); the exit code says how the
    check went. Raises the resolver's errors (the caller reports them)."""
    import asyncio

    profile = resolve_profile(ns.profile, keystore=store)
    check: dict[str, Any] | None = None
    code = Exit.OK
    login = login_command(ns, store)
    if profile.needs_sign_in or profile.key is None or profile.base_url is None:
        code = Exit.AUTH
    else:
        try:
            identity = asyncio.run(check_key(profile.base_url, profile.key, transport))
            check = {"ok": True, **identity_document(identity)}
        except ConfigurationError as exc:
            code = Exit.USAGE
            check = {"ok": False, "error": {"code": "invalid_request", "message": exc.message}}
        except LeadError as exc:
            failure = from_lead_error(exc)
            code = failure.exit
            check = {"ok": False, **failure.document(), "said": describe_error(exc)}
    if getattr(ns, "json", False):
        out.write(json.dumps(_document(profile, check, login), ensure_ascii=False) + "\n")
    else:
        for line in _lines(profile, check, login):
            print(line, file=out)
    return code


def _document(profile: ResolvedProfile, check: dict[str, Any] | None, login: str) -> dict[str, Any]:
    doc: dict[str, Any] = {
        "profile": {"name": profile.name, "source": profile.name_source},
        "server": {"base_url": profile.base_url, "source": profile.base_url_source},
        "key": (
            {"masked": profile.key_masked, "source": str(profile.key_source)}
            if profile.key is not None and profile.key_source is not None
            else None
        ),
        "spend_policy": {
            "read_only": profile.policy.read_only,
            "spend_budget": profile.policy.spend_budget,
            "budget_source": profile.budget_source,
            "budget_only_in_environment": profile.policy.budget_from_env,
        },
        "download_dir": str(profile.download_dir),
        "settings_file": str(profile.config_file),
        "signed_in": check is not None,
        "check": None,
    }
    if check is None:
        doc["hint"] = f"Run `{login}`, or set {API_KEY_ENV} and {BASE_URL_ENV}."
    else:
        doc["check"] = {k: v for k, v in check.items() if k != "said"}
    return doc


def _lines(profile: ResolvedProfile, check: dict[str, Any] | None, login: str) -> list[str]:
    origin = profile.name_source if profile.name_source != "default" else None
    lines = [f"Profile: {profile.name}" + (f" (from {origin})" if origin else "")]
    if profile.base_url:
        lines.append(f"Server:  {profile.base_url} (from {profile.base_url_source})")
    else:
        lines.append("Server:  not set")
    if profile.key is not None and profile.key_source is not None:
        lines.append(f"Key:     {profile.key_masked} (from {key_place(profile.key_source)})")
    else:
        lines.append("Key:     none saved")
    if check is None:
        lines.append(f"Not signed in. Run `{login}`, or set {API_KEY_ENV} and {BASE_URL_ENV}.")
    elif check["ok"]:
        lines.append(f"Check:   OK. {check['said']}")
    elif "said" in check:
        lines.append(f"Check:   FAILED: {check['said']}")
    else:
        lines.append(f"Check:   not possible: {check['error']['message']}")
    lines.append(f"Spends:  {_policy_words(profile)}")
    return lines


def _policy_words(profile: ResolvedProfile) -> str:
    if profile.policy.read_only:
        return "read-only: every spend is refused"
    if not profile.policy.spend_budget:
        return "every spend is asked (no budget)"
    where = {
        "environment": "set only in the environment (LEADTUI_* variable)",
        "settings file": "from the settings file",
        "default": "the default",
    }[profile.budget_source]
    return f"up to {profile.policy.spend_budget:,} credits without asking; budget {where}"


async def check_key(
    base_url: str, key: SecretStr, transport: httpx.AsyncBaseTransport | None
) -> Identity:
    """GET /me with `key`: what login and status check a key with."""
    from leadtui.cli.network import ThreadedTransport

    async with LeadClient(base_url, key, transport=transport or ThreadedTransport()) as client:
        return await client.me()


def login_command(ns: argparse.Namespace, store: KeyStore) -> str:
    """The login that works here: --insecure-storage only where there is no OS keyring."""
    words = ["leadtui", "login"]
    if ns.profile:
        words += ["--profile", shlex.quote(ns.profile)]
    if not store.keyring_available():
        words.append("--insecure-storage")
    return " ".join(words)


def key_place(source: KeySource) -> str:
    return {
        KeySource.ENVIRONMENT: f"the environment ({API_KEY_ENV})",
        KeySource.KEYRING: "the OS keyring",
        KeySource.INSECURE_FILE: "the insecure key file",
    }[source]


def identity_document(identity: Identity) -> dict[str, Any]:
    account = identity.account.name if identity.account and identity.account.name else None
    return {
        "account": account,
        "credits": identity.credits,
        "subscription": identity.subscription.status,
        "scopes": list(identity.scopes),
        "said": describe_identity(identity),
    }


def describe_identity(identity: Identity) -> str:
    account = identity.account.name if identity.account and identity.account.name else None
    who = f"Account {account}: " if account else "Account: "
    return (
        f"{who}{identity.credits:,} credits, subscription {identity.subscription.status}, "
        f"{len(identity.scopes)} scopes."
    )


def describe_error(exc: LeadError) -> str:
    if isinstance(exc, ApiError):
        rid = f", request id {exc.request_id}" if exc.request_id else ""
        return f"{exc.title} ({exc.status} {exc.code}{rid}): {exc.message}"
    return f"{exc.title}: {exc.message}"

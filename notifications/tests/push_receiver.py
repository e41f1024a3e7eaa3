"""A real Web Push receiver for the tests: a local HTTP endpoint standing in for a push
service AND the browser behind it. It holds a subscription's private key and auth secret
(as a browser does), checks each request's VAPID JWT (RFC 8292: ES256 over the claims,
`aud` the endpoint's origin, `exp` within 24 hours, a `sub` contact) and decrypts the
aes128gcm body (RFC 8291/8188) with http_ece. Nothing of the sending code is replaced:
pywebpush makes real HTTP requests to it.
"""
from __future__ import annotations

import base64
import json
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import http_ece
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.asymmetric.utils import encode_dss_signature


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64url(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass
class Device:
    """One subscription: what the browser keeps (private key, auth secret)."""

    token: str
    private_key: ec.EllipticCurvePrivateKey = field(default_factory=lambda: ec.generate_private_key(ec.SECP256R1()))
    auth_secret: bytes = field(default_factory=lambda: os.urandom(16))

    @property
    def p256dh(self) -> str:
        return b64url(self.private_key.public_key().public_bytes(serialization.Encoding.X962,
                                                                 serialization.PublicFormat.UncompressedPoint))

    @property
    def auth(self) -> str:
        return b64url(self.auth_secret)


@dataclass
class Received:
    device: str
    payload: dict
    claims: dict
    vapid_key: str
    headers: dict


class VapidError(Exception):
    pass


def verify_vapid(authorization: str, audience: str) -> tuple[dict, str]:
    """The claims and public key of a `vapid t=JWT, k=KEY` header, or VapidError."""
    if not authorization.startswith("vapid "):
        raise VapidError(f"not a vapid authorization: {authorization[:20]!r}")
    params = dict(part.strip().split("=", 1) for part in authorization[len("vapid "):].split(","))
    token, key = params["t"], params["k"]
    head_b64, claims_b64, signature_b64 = token.split(".")
    header = json.loads(unb64url(head_b64))
    if header != {"typ": "JWT", "alg": "ES256"}:
        raise VapidError(f"JWT header {header}")
    signature = unb64url(signature_b64)
    if len(signature) != 64:
        raise VapidError("an ES256 signature is 64 bytes (r || s)")
    public = ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), unb64url(key))
    der = encode_dss_signature(int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big"))
    try:
        public.verify(der, f"{head_b64}.{claims_b64}".encode(), ec.ECDSA(hashes.SHA256()))
    except InvalidSignature:
        raise VapidError("the JWT signature does not match the key") from None
    claims = json.loads(unb64url(claims_b64))
    if claims.get("aud") != audience:
        raise VapidError(f"aud {claims.get('aud')!r} is not {audience!r}")
    if not time.time() < claims.get("exp", 0) <= time.time() + 24 * 3600:
        raise VapidError("exp must be in the next 24 hours")
    if not str(claims.get("sub", "")).startswith(("mailto:", "https:")):
        raise VapidError("sub must be a mailto: or https: contact")
    return claims, key


class PushReceiver:
    """Start with `with PushReceiver() as receiver:`; `receiver.subscribe()` gives a
    device whose endpoint is here; `receiver.received` lists what arrived, decrypted."""

    def __init__(self) -> None:
        self.devices: dict[str, Device] = {}
        self.gone: dict[str, int] = {}  # token -> status (404/410) the service answers
        self.received: list[Received] = []
        self.rejected: list[str] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802 (http.server's name)
                status, note = receiver.handle(self.path, {k.lower(): v for k, v in self.headers.items()},
                                               self.rfile.read(int(self.headers.get("Content-Length", 0))))
                self.send_response(status)
                self.end_headers()
                self.wfile.write(note.encode())

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"

    def __enter__(self) -> PushReceiver:
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc) -> None:
        self.server.shutdown()
        self.server.server_close()

    def subscribe(self) -> Device:
        device = Device(token=b64url(os.urandom(12)))
        self.devices[device.token] = device
        return device

    def endpoint(self, device: Device) -> str:
        return f"{self.origin}/push/{device.token}"

    def subscription_json(self, device: Device) -> dict:
        """What PushSubscription.toJSON() gives a page."""
        return {"endpoint": self.endpoint(device), "keys": {"p256dh": device.p256dh, "auth": device.auth}}

    def handle(self, path: str, headers: dict, body: bytes) -> tuple[int, str]:
        token = path.rsplit("/", 1)[-1]
        if token in self.gone:
            return self.gone[token], "gone"
        device = self.devices.get(token)
        if device is None:
            return 404, "no such subscription"
        try:
            claims, key = verify_vapid(headers.get("authorization", ""), self.origin)
            if headers.get("content-encoding") != "aes128gcm":
                raise VapidError(f"Content-Encoding {headers.get('content-encoding')!r}")
            if "ttl" not in headers:
                raise VapidError("no TTL header")
            plain = http_ece.decrypt(body, private_key=device.private_key, auth_secret=device.auth_secret,
                                     version="aes128gcm")
        except Exception as exc:  # recorded for the test to show
            self.rejected.append(f"{type(exc).__name__}: {exc}")
            return 400, str(exc)
        self.received.append(Received(device=token, payload=json.loads(plain), claims=claims, vapid_key=key,
                                      headers=headers))
        return 201, "created"

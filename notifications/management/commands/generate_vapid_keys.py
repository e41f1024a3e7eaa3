"""Print a new VAPID key pair (RFC 8292) for Web Push, as the environment wants them."""
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from django.core.management.base import BaseCommand

from notifications.push import b64url_encode


class Command(BaseCommand):
    help = "Generate VAPID keys for Web Push: put the two lines in the environment (keep the private one secret)."

    def handle(self, *args, **options):
        key = ec.generate_private_key(ec.SECP256R1())
        private = key.private_numbers().private_value.to_bytes(32, "big")
        public = key.public_key().public_bytes(serialization.Encoding.X962,
                                               serialization.PublicFormat.UncompressedPoint)
        self.stdout.write(f"VAPID_PRIVATE_KEY={b64url_encode(private)}")
        self.stdout.write(f"VAPID_PUBLIC_KEY={b64url_encode(public)}")
        self.stderr.write("Changing the keys later makes every browser subscribe again: keep them.")

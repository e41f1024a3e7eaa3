"""Rift Valley Reserve (slug "rift-valley-reserve"): draw Stops, Trails and Tents on maps
that travel round the table. Spec: shared/rules/rift_valley_reserve.md."""
from .rules import RiftValleyReserve

RULES = RiftValleyReserve()

__all__ = ["RULES", "RiftValleyReserve"]

"""Rift Valley Reserve board geometry: every size and shape the SVG maps are drawn with.

Pure arithmetic on cells (r, c); the presenter's builders place things with these.
"""
from __future__ import annotations

CELL = 44          # main map, px per cell
THUMB = 13         # thumbnails, px per cell
PAD = 3            # margin round a map
CORNER_RADIUS = 0.45   # of a cell: how round an L Trail's corner is
STOP_RADIUS = 0.3      # of a cell
HALO_EXTRA = 6         # px round a Stop that can start or end a Trail
FONT = 0.36            # of a cell: seat numbers on Stops and Tents
TENT_HALF = 0.36       # of a cell: half the height of a Tent's triangle
PLANK_INSET = 0.3      # of a cell: a bridge plank across the canyon
RIFT_CHARS = "|-#"
COORD_GUTTER = 0.32    # of a cell: the margin for the row numbers and column letters
COORD_FONT = 0.25      # of a cell: their size


def origin(r: int, c: int, size: float) -> tuple[float, float]:
    """Top-left corner of a cell."""
    return PAD + c * size, PAD + r * size


def centre(r: int, c: int, size: float) -> tuple[float, float]:
    return PAD + c * size + size / 2, PAD + r * size + size / 2


def triangle(r: int, c: int, size: float) -> str:
    """The points of a Tent drawn in a cell."""
    x, y = centre(r, c, size)
    h = size * TENT_HALF
    return f"{x:.1f},{y - h:.1f} {x + h:.1f},{y + h * 0.8:.1f} {x - h:.1f},{y + h * 0.8:.1f}"


def _corner_index(path: list) -> int | None:
    for i in range(1, len(path) - 1):
        (r0, _), (r1, _), (r2, _) = path[i - 1], path[i], path[i + 1]
        if (r0 == r1) != (r1 == r2):
            return i
    return None


def trail_d(path: list, size: float) -> str:
    """An SVG path through cell centres, with a rounded corner for an L."""
    pts = [centre(r, c, size) for r, c in path]
    corner = _corner_index(path)
    if corner is None:
        return f"M{pts[0][0]:.1f},{pts[0][1]:.1f} L{pts[-1][0]:.1f},{pts[-1][1]:.1f}"
    (x0, y0), (xk, yk), (x1, y1) = pts[0], pts[corner], pts[-1]
    rad = size * CORNER_RADIUS

    def toward(xb: float, yb: float) -> tuple[float, float]:
        dx, dy = xb - xk, yb - yk
        length = max(abs(dx), abs(dy)) or 1
        return xk + dx / length * rad, yk + dy / length * rad
    ax, ay = toward(x0, y0)
    bx, by = toward(x1, y1)
    return (f"M{x0:.1f},{y0:.1f} L{ax:.1f},{ay:.1f} Q{xk:.1f},{yk:.1f} {bx:.1f},{by:.1f} "
            f"L{x1:.1f},{y1:.1f}")


def area_borders(areas: list[str], size: float) -> list[tuple]:
    """A line on every cell edge between two areas."""
    rows, cols = len(areas), len(areas[0])
    lines = []
    for r in range(rows):
        for c in range(cols):
            x, y = origin(r, c, size)
            if c + 1 < cols and areas[r][c] != areas[r][c + 1]:
                lines.append((x + size, y, x + size, y + size))
            if r + 1 < rows and areas[r][c] != areas[r + 1][c]:
                lines.append((x, y + size, x + size, y + size))
    return lines


def rift_outline(terrain: list[str], size: float) -> list[tuple]:
    """A line on every edge of a rift cell that does not touch another rift cell."""
    rows, cols = len(terrain), len(terrain[0])

    def rift(r: int, c: int) -> bool:
        return 0 <= r < rows and 0 <= c < cols and terrain[r][c] in RIFT_CHARS
    lines = []
    for r in range(rows):
        for c in range(cols):
            if not rift(r, c):
                continue
            x, y = origin(r, c, size)
            x1, y1 = x + size, y + size
            for (dr, dc), line in (((-1, 0), (x, y, x1, y)), ((1, 0), (x, y1, x1, y1)),
                                   ((0, -1), (x, y, x, y1)), ((0, 1), (x1, y, x1, y1))):
                if not rift(r + dr, c + dc):
                    lines.append(line)
    return lines


def planks(path: list, terrain: list[str], size: float) -> list[dict]:
    """The bridge planks of a Trail: one across each rift cell it crosses."""
    out = []
    for i in range(1, len(path) - 1):
        r, c = path[i]
        if terrain[r][c] not in RIFT_CHARS:
            continue
        x, y = origin(r, c, size)
        horizontal = path[i - 1][0] == r
        out.append({"x": x, "y": y + size * PLANK_INSET, "w": size, "h": size * (1 - 2 * PLANK_INSET)}
                   if horizontal else
                   {"x": x + size * PLANK_INSET, "y": y, "w": size * (1 - 2 * PLANK_INSET), "h": size})
    return out

// The board in SVG, drawn from the engine's own geometry (/api/board): each space a hexagon at
// its axial cell (q, r), pointy side up. Nothing here knows the rules.

import { svg } from "./dom.js";

const SQRT3 = Math.sqrt(3);

let geometry = null;

export async function loadBoard() {
  if (!geometry) {
    const answer = await fetch("/api/board");
    geometry = await answer.json();
  }
  return geometry;
}

function centre(q, r) {
  return [SQRT3 * (q + r / 2), 1.5 * r];
}

function hexagon(cx, cy, size) {
  const points = [];
  for (let i = 0; i < 6; i++) {
    const angle = (Math.PI / 180) * (60 * i - 30);
    points.push(`${(cx + size * Math.cos(angle)).toFixed(3)},${(cy + size * Math.sin(angle)).toFixed(3)}`);
  }
  return points.join(" ");
}

// The board's SVG element and its spaces (space number -> <g>), tapped spaces to onTap.
export function drawBoard(board, onTap) {
  let width = 0;
  let height = 0;
  for (const { q, r } of board.spaces) {
    const [x, y] = centre(q, r);
    width = Math.max(width, Math.abs(x) + 1);
    height = Math.max(height, Math.abs(y) + 1.05);
  }
  const root = svg("svg", {
    class: "board",
    "data-testid": "board",
    viewBox: `${(-width).toFixed(3)} ${(-height).toFixed(3)} ${(2 * width).toFixed(3)} ${(2 * height).toFixed(3)}`,
    role: "group",
  });
  root.append(svg("polygon", { class: "centre", points: hexagon(0, 0, 0.96) }));
  const spaces = new Map();
  for (const { space, q, r } of board.spaces) {
    const [cx, cy] = centre(q, r);
    const group = svg("g", { class: "space", "data-space": space, role: "button", "aria-label": String(space) });
    group.append(svg("polygon", { points: hexagon(cx, cy, 0.96) }));
    const label = svg("text", { x: cx.toFixed(3), y: cy.toFixed(3) });
    label.textContent = String(space);
    group.append(label);
    group.addEventListener("click", () => onTap(space));
    root.append(group);
    spaces.set(space, group);
  }
  return { root, spaces };
}

// The board on a canvas: the scene the server sends (game/net/scenes.py), drawn with the
// game's own sprite sheets (data/sprites, served as PNG at /sprites/, their index as JSON at
// /api/look). Team sheets are palette-swapped per side here, as game/render/sprites.py does
// for the window; a kind with no frame is a plain shape in its palette colour, so any grid
// ruleset draws.

const MOBILE = new Set(["hero", "minion"]);
const BUILDINGS = new Set(["hq", "tower"]);
const TERRAIN = new Set(["water", "lava", "grass", "goop", "floor"]);
const AUTOTILED = { water: "water", wall: "wall" };

function css([r, g, b], a = 1) {
  return `rgba(${r}, ${g}, ${b}, ${a})`;
}

function loadImage(url) {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error(`cannot load ${url}`));
    image.src = url;
  });
}

// The sheets and their frames, one canvas per sheet and side for team sheets.
export class SpriteBook {
  static async load() {
    let look = { sheets: {}, sides: {}, things: {}, words: {} };
    try {
      const answer = await fetch("/api/look");
      if (answer.ok) look = await answer.json();
    } catch (error) {
      console.warn("no look from the server - drawing plain shapes", error);
    }
    const book = new SpriteBook(look);
    await Promise.all(Object.entries(look.sheets).map(async ([name, sheet]) => {
      try {
        book.pictures[name] = await loadImage(`/sprites/${sheet.file}`);
      } catch (error) {
        console.warn(error.message, "- drawing plain shapes instead");
      }
    }));
    return book;
  }

  constructor(look) {
    this.look = look;
    this.pictures = {};
    this.swapped = {};
    this.where = {};
    for (const [name, sheet] of Object.entries(look.sheets)) {
      for (const frame of Object.keys(sheet.frames)) this.where[frame] = name;
    }
  }

  has(frame) {
    return frame in this.where && this.where[frame] in this.pictures;
  }

  // [image, sx, sy, size] of a frame in a side's colours, or null.
  frame(name, side = "") {
    const sheetName = this.where[name];
    const picture = this.pictures[sheetName];
    if (!picture) return null;
    const sheet = this.look.sheets[sheetName];
    const [col, row] = sheet.frames[name];
    const image = sheet.team_key.length && side ? this.sideSheet(sheetName, side) : picture;
    return [image, col * sheet.cell, row * sheet.cell, sheet.cell];
  }

  sideSheet(name, side) {
    const key = `${name}/${side}`;
    if (this.swapped[key]) return this.swapped[key];
    const picture = this.pictures[name];
    const canvas = document.createElement("canvas");
    canvas.width = picture.width;
    canvas.height = picture.height;
    const context = canvas.getContext("2d");
    context.drawImage(picture, 0, 0);
    const shades = this.look.sides[side] || [[200, 200, 200], [150, 150, 150], [90, 90, 90]];
    const keys = this.look.sheets[name].team_key;
    const pixels = context.getImageData(0, 0, canvas.width, canvas.height);
    const data = pixels.data;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3] === 0) continue;
      for (let k = 0; k < keys.length && k < shades.length; k++) {
        if (data[i] === keys[k][0] && data[i + 1] === keys[k][1] && data[i + 2] === keys[k][2]) {
          [data[i], data[i + 1], data[i + 2]] = shades[k];
          break;
        }
      }
    }
    context.putImageData(pixels, 0, 0);
    this.swapped[key] = canvas;
    return canvas;
  }
}

// The things of a game as the page knows them, kept up to date frame by frame.
export class Board {
  constructor(canvas, book) {
    this.canvas = canvas;
    this.book = book;
    this.things = new Map();
    this.facing = new Map();
    this.touched = new Set();  // the things the shown command changed
    this.status = null;
  }

  reset(scene) {
    this.things = new Map(scene.things.map((thing) => [thing.id, thing]));
    this.facing = new Map();
    this.touched = new Set();
    const { things, ...status } = scene;
    this.status = status;
  }

  // One command's frame: the things it changed or added, those it removed, the new status.
  apply(frame) {
    this.touched = new Set(frame.set.map((thing) => thing.id));
    for (const thing of frame.set) {
      const old = this.things.get(thing.id);
      if (old && (old.x !== thing.x || old.y !== thing.y)) {
        const dx = thing.x - old.x;
        const dy = thing.y - old.y;
        this.facing.set(thing.id, Math.abs(dx) >= Math.abs(dy)
          ? (dx > 0 ? "right" : "left") : (dy > 0 ? "down" : "up"));
      }
      this.things.set(thing.id, thing);
    }
    for (const id of frame.gone) this.things.delete(id);
    this.status = frame.status;
  }

  kindsAt(x, y) {
    const found = [];
    for (const thing of this.things.values()) {
      if (thing.x === x && thing.y === y) found.push(thing.kind);
    }
    return found;
  }

  draw() {
    const size = this.status && this.status.size;
    if (!size) return;
    const [cols, rows] = size;
    const wide = this.canvas.parentElement.clientWidth || 640;
    const tall = Math.max(240, window.innerHeight - 150);
    const cell = Math.max(8, Math.min(56, Math.floor(wide / cols), Math.floor(tall / rows)));
    this.cell = cell;
    this.canvas.width = cols * cell;
    this.canvas.height = rows * cell;
    const g = this.canvas.getContext("2d");
    g.imageSmoothingEnabled = false;
    g.fillStyle = css(this.book.look.floor || [226, 221, 206]);
    g.fillRect(0, 0, cols * cell, rows * cell);
    if (cell >= 8) {
      g.strokeStyle = css(this.book.look.grid || [196, 190, 172]);
      g.lineWidth = 1;
      g.beginPath();
      for (let c = 1; c < cols; c++) { g.moveTo(c * cell + 0.5, 0); g.lineTo(c * cell + 0.5, rows * cell); }
      for (let r = 1; r < rows; r++) { g.moveTo(0, r * cell + 0.5); g.lineTo(cols * cell, r * cell + 0.5); }
      g.stroke();
    }
    const rank = (thing) => (thing.side && MOBILE.has(thing.kind) ? 3
      : BUILDINGS.has(thing.kind) ? 2 : TERRAIN.has(thing.kind) ? 0 : 1);
    const order = [...this.things.values()].sort((a, b) => rank(a) - rank(b) || (a.z || 0) - (b.z || 0) || a.id - b.id);
    for (const thing of order) this.drawThing(g, thing, cell);
    // what the last command changed, boxed in the window's selection colour
    g.strokeStyle = "rgb(255, 230, 80)";
    g.lineWidth = Math.max(2, Math.floor(cell / 12));
    for (const id of this.touched) {
      const thing = this.things.get(id);
      if (thing && (thing.side || thing.word)) {
        g.strokeRect(thing.x * cell + 1, thing.y * cell + 1, cell - 2, cell - 2);
      }
    }
  }

  sprite(g, frame, side, thing, cell, lift = 0) {
    const found = this.book.frame(frame, side);
    if (!found) return false;
    const [image, sx, sy, size] = found;
    g.drawImage(image, sx, sy, size, size, thing.x * cell, thing.y * cell - lift, cell, cell);
    return true;
  }

  drawThing(g, thing, cell) {
    const side = thing.side || "";
    const look = this.book.look;
    const x = thing.x * cell;
    const y = thing.y * cell;
    if (thing.word) {
      if (!this.sprite(g, `word.${thing.word.toUpperCase()}`, "", thing, cell)) {
        const color = look.words[thing.word] || [220, 220, 220];
        g.fillStyle = "rgb(30, 30, 36)";
        g.fillRect(x + 1, y + 1, cell - 2, cell - 2);
        this.letter(g, thing.word.slice(0, 3), color, x, y, cell, 0.4);
      }
    } else if (MOBILE.has(thing.kind)) {
      const name = thing.kind === "hero" ? (thing.class || "bulwark") : "minion";
      const facing = this.facing.get(thing.id) || (side === "blue" ? "left" : "right");
      if (!this.sprite(g, `${name}.${facing}.idle`, side, thing, cell, cell * 0.06)) {
        const color = (look.sides[side] || [[0], [160, 160, 160]])[1];
        g.fillStyle = css(color);
        g.beginPath();
        g.arc(x + cell / 2, y + cell / 2, cell * (thing.kind === "hero" ? 0.37 : 0.27), 0, 2 * Math.PI);
        g.fill();
        this.letter(g, name[0].toUpperCase(), [250, 250, 250], x, y, cell, 0.45);
      }
    } else if (BUILDINGS.has(thing.kind)) {
      if (!this.sprite(g, thing.kind, side, thing, cell)) {
        g.fillStyle = css((look.sides[side] || [[0], [120, 120, 120]])[1]);
        g.fillRect(x + 2, y + 2, cell - 4, cell - 4);
        this.letter(g, thing.kind[0].toUpperCase(), [250, 250, 250], x, y, cell, 0.45);
      }
    } else {
      let frame = thing.kind;
      if (AUTOTILED[thing.kind]) frame = `${thing.kind}.${this.mask(thing, AUTOTILED[thing.kind])}`;
      if (!this.sprite(g, frame, "", thing, cell)) {
        g.fillStyle = css(look.things[thing.kind] || [140, 140, 140]);
        const pad = TERRAIN.has(thing.kind) ? 0 : Math.max(1, Math.floor(cell / 14));
        g.fillRect(x + pad, y + pad, cell - 2 * pad, cell - 2 * pad);
      }
      if (thing.z) this.letter(g, String(thing.z), [20, 20, 24], x, y, cell, 0.4);
    }
    if (thing.hp !== undefined && cell >= 8) {
      const frac = Math.max(0, Math.min(1, thing.hp / Math.max(1, thing.max_hp)));
      const height = Math.max(2, Math.floor(cell / 9));
      g.fillStyle = "rgb(40, 20, 20)";
      g.fillRect(x + 2, y + cell - height - 1, cell - 4, height);
      g.fillStyle = frac > 0.4 ? "rgb(70, 200, 90)" : "rgb(230, 80, 60)";
      g.fillRect(x + 2, y + cell - height - 1, Math.max(1, Math.round((cell - 4) * frac)), height);
    }
  }

  // The autotile mask of a cell: bit 1 north, 2 east, 4 south, 8 west where a neighbour joins.
  mask(thing, join) {
    let mask = 0;
    const around = [[1, 0, -1], [2, 1, 0], [4, 0, 1], [8, -1, 0]];
    for (const [bit, dx, dy] of around) {
      if (this.kindsAt(thing.x + dx, thing.y + dy).includes(join)) mask |= bit;
    }
    return mask;
  }

  letter(g, text, color, x, y, cell, scale) {
    g.fillStyle = css(color);
    g.font = `bold ${Math.max(6, Math.floor(cell * scale))}px sans-serif`;
    g.textAlign = "center";
    g.textBaseline = "middle";
    g.fillText(text, x + cell / 2, y + cell / 2);
  }

  // The cell under a point of the canvas, for the tooltip.
  cellAt(px, py) {
    if (!this.cell) return null;
    return [Math.floor(px / this.cell), Math.floor(py / this.cell)];
  }
}

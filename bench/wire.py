#!/usr/bin/env python3
"""bench/wire.py: what a battle's frames carry on the wire, per audience.

Plays BATTLES battles of a ruleset against a running server the way the load test does
(one connection per player seat, playing uniformly at random among its whole `legal`
actions, two spectators), one battle after another on the same connections, and records
every frame each connection receives. Then reports:

  * frames and bytes per kind (snapshot, patch, replies) and per audience (seat 0, seat 1,
    spectators), and the bytes per accepted move across the battle's connections;
  * the patches' operations: how many per patch, and for each path (digits shown as N)
    how often it appears and the bytes it takes, per move;
  * what RFC 7692 permessage-deflate would make of the same frames: per connection with
    context takeover (the default), per message without it (which lets one compressed copy
    serve a whole audience), at zlib levels 1 and 6, and the time zlib took.

Only the standard library. Usage:

    bench/wire.py ws://127.0.0.1:PORT [--battles 40] [--ruleset synergy] [--sample pvp]
                  [--seed 1] [--json OUT.json] [--frames OUT.jsonl]

`--frames` writes every recorded frame (connection, audience, battle, text) as JSON lines,
for other analyses; `--json` writes the report. `--what-if FRAMES.jsonl` reads such a file
instead of playing, and also reports what each proposed trimming of the patches would leave
(see `what_if`), alone and together, before and after deflate.
"""

import argparse
import base64
import json
import os
import random
import re
import select
import socket
import struct
import sys
import time
import zlib
from collections import Counter, defaultdict


class Conn:
    """A minimal WebSocket client connection (text frames, no extensions)."""

    def __init__(self, url, name):
        m = re.match(r"ws://([^:/]+):(\d+)(/.*)?$", url)
        if not m:
            sys.exit(f"bad url {url}")
        host, port, path = m.group(1), int(m.group(2)), m.group(3) or "/"
        self.name = name
        self.sock = socket.create_connection((host, port))
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        key = base64.b64encode(os.urandom(16)).decode()
        req = (
            f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        )
        self.sock.sendall(req.encode())
        buf = b""
        while b"\r\n\r\n" not in buf:
            chunk = self.sock.recv(4096)
            if not chunk:
                sys.exit("handshake: connection closed")
            buf += chunk
        head, _, rest = buf.partition(b"\r\n\r\n")
        if b" 101 " not in head.split(b"\r\n")[0]:
            sys.exit(f"handshake refused: {head[:200]!r}")
        self.buf = rest
        self.req = 0

    def send(self, msg):
        data = json.dumps(msg, separators=(",", ":")).encode()
        mask = os.urandom(4)
        n = len(data)
        if n < 126:
            header = struct.pack("!BB", 0x81, 0x80 | n)
        elif n < 65536:
            header = struct.pack("!BBH", 0x81, 0x80 | 126, n)
        else:
            header = struct.pack("!BBQ", 0x81, 0x80 | 127, n)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(data))
        self.sock.sendall(header + mask + masked)

    def request(self, msg):
        self.req += 1
        msg["req"] = self.req
        self.send(msg)
        return self.req

    def frames(self):
        """Whole frames now in the buffer: (opcode, payload, wire length)."""
        out = []
        while True:
            b = self.buf
            if len(b) < 2:
                break
            op = b[0] & 0x0F
            n = b[1] & 0x7F
            at = 2
            if n == 126:
                if len(b) < 4:
                    break
                n = struct.unpack("!H", b[2:4])[0]
                at = 4
            elif n == 127:
                if len(b) < 10:
                    break
                n = struct.unpack("!Q", b[2:10])[0]
                at = 10
            if len(b) < at + n:
                break
            out.append((op, b[at : at + n], at + n))
            self.buf = b[at + n :]
        return out

    def fill(self):
        chunk = self.sock.recv(65536)
        if not chunk:
            raise EOFError(self.name)
        self.buf += chunk


def pointer(path):
    if path == "":
        return []
    return [p.replace("~1", "/").replace("~0", "~") for p in path.split("/")[1:]]


def apply_patch(doc, ops):
    """RFC 6902 on `doc` (in place where it can; returns the new document)."""

    def parent(root, parts):
        node = root
        for p in parts[:-1]:
            node = node[int(p)] if isinstance(node, list) else node[p]
        return node

    for op in ops:
        parts = pointer(op["path"])
        kind = op["op"]
        if not parts:
            if kind in ("add", "replace"):
                doc = op["value"]
            continue
        if kind in ("move", "copy"):
            src = pointer(op["from"])
            sp = parent(doc, src)
            value = sp[int(src[-1])] if isinstance(sp, list) else sp[src[-1]]
            if kind == "move":
                if isinstance(sp, list):
                    del sp[int(src[-1])]
                else:
                    del sp[src[-1]]
            op = {"op": "add", "path": op["path"], "value": value}
            kind = "add"
        p = parent(doc, parts)
        last = parts[-1]
        if kind == "add":
            if isinstance(p, list):
                if last == "-":
                    p.append(op["value"])
                else:
                    p.insert(int(last), op["value"])
            else:
                p[last] = op["value"]
        elif kind == "replace":
            if isinstance(p, list):
                p[int(last)] = op["value"]
            else:
                p[last] = op["value"]
        elif kind == "remove":
            if isinstance(p, list):
                del p[int(last)]
            else:
                del p[last]
    return doc


def shape(path):
    return re.sub(r"/\d+", "/N", path)


def play(args):
    rng = random.Random(args.seed)
    roles = ["seat0", "seat1", "spectator", "spectator"]
    conns = [Conn(args.url, f"{i}:{r}") for i, r in enumerate(roles)]
    welcome = None
    for c in conns:
        c.request({"type": "hello", "protocol": args.protocol})
    records = []  # (conn index, audience, battle number, kind, payload bytes, wire bytes, text)
    # Wait for the welcomes.
    pending = set(range(4))
    while pending:
        r, _, _ = select.select([conns[i].sock for i in pending], [], [], 10)
        if not r:
            sys.exit("no welcome")
        for i in list(pending):
            if conns[i].sock in r:
                conns[i].fill()
                for op, payload, _ in conns[i].frames():
                    msg = json.loads(payload)
                    if msg.get("type") == "welcome":
                        welcome = msg
                        pending.discard(i)
                    elif msg.get("type") == "error":
                        sys.exit(f"hello refused: {msg}")
    options = None
    for rs in welcome.get("rulesets", []):
        if rs.get("id") == args.ruleset:
            for sample in rs.get("samples", []):
                if args.sample is None or sample.get("name") == args.sample:
                    options = sample.get("options")
                    break
    if options is None:
        options = {"mode": "pvp"} if args.ruleset == "synergy" else {}
    moves = 0
    started = time.time()
    for battle in range(args.battles):
        creator = conns[0]
        creator.request(
            {
                "type": "create",
                "ruleset": args.ruleset,
                "options": options,
                "bots": [],
                "private": True,
                "pace_ms": 0,
            }
        )
        battle_id = None
        while battle_id is None:
            select.select([creator.sock], [], [], 10)
            creator.fill()
            for op, payload, wire in creator.frames():
                msg = json.loads(payload)
                records.append((0, "seat0", battle, msg.get("type"), len(payload), wire, payload))
                if msg.get("type") == "created":
                    battle_id = msg["battle_id"]
                elif msg.get("type") == "error":
                    sys.exit(f"create refused: {msg}")
        views = [None] * 4
        joined = [False] * 4
        waiting = [False] * 4  # a player's act is unanswered
        finished = [False] * 4
        for i, c in enumerate(conns):
            if i < 2:
                c.request({"type": "join", "battle_id": battle_id, "seat": i})
            else:
                c.request({"type": "spectate", "battle_id": battle_id})
        deadline = time.time() + 120
        while not all(finished):
            if time.time() > deadline:
                sys.exit(f"battle {battle_id} did not end")
            r, _, _ = select.select([c.sock for c in conns], [], [], 10)
            if not r:
                sys.exit(f"battle {battle_id} stalled: views {[(v or {}).get('to_act') for v in views]}")
            for i, c in enumerate(conns):
                if c.sock not in r:
                    continue
                c.fill()
                for op, payload, wire in c.frames():
                    if op != 1:
                        continue
                    msg = json.loads(payload)
                    kind = msg.get("type")
                    records.append((i, roles[i], battle, kind, len(payload), wire, payload))
                    if kind == "snapshot":
                        views[i] = msg["view"]
                    elif kind == "patch":
                        views[i] = apply_patch(views[i], msg["ops"])
                    if kind in ("joined", "spectating"):
                        joined[i] = True
                    if msg.get("req") is not None and kind in ("patch", "snapshot", "error"):
                        if kind != "error" and waiting[i]:
                            moves += 1
                        waiting[i] = False
                    v = views[i]
                    if v is not None and v.get("status") == "finished":
                        finished[i] = True
            # Players act when awaited.
            for i in range(2):
                v = views[i]
                if v is None or waiting[i] or v.get("status") != "playing":
                    continue
                if i not in (v.get("to_act") or []):
                    continue
                whole = [a for a in v.get("legal", []) if "$choose" not in json.dumps(a)]
                if not whole:
                    continue
                action = rng.choice(whole)
                conns[i].request({"type": "act", "battle_id": battle_id, "action": action})
                waiting[i] = True
        # Leave quietly: the next battle is created on the same connections.
        for i, c in enumerate(conns):
            c.request({"type": "leave", "battle_id": battle_id})
        # Collect the `left` replies (and anything still in flight).
        got = [False] * 4
        end = time.time() + 5
        while not all(got) and time.time() < end:
            r, _, _ = select.select([c.sock for c in conns], [], [], 1)
            for i, c in enumerate(conns):
                if c.sock in r:
                    c.fill()
                    for op, payload, wire in c.frames():
                        if op != 1:
                            continue
                        msg = json.loads(payload)
                        records.append((i, roles[i], battle, msg.get("type"), len(payload), wire, payload))
                        if msg.get("type") == "left":
                            got[i] = True
    return records, moves, time.time() - started


def deflate_stats(records, level):
    """Compressed sizes: per connection with context takeover, and per message alone."""
    per_conn = {}
    ctx_bytes = 0
    alone_bytes = 0
    t_ctx = 0.0
    t_alone = 0.0
    for conn, _, _, _, _, _, payload in records:
        comp = per_conn.get(conn)
        if comp is None:
            comp = per_conn[conn] = zlib.compressobj(level, zlib.DEFLATED, -15, 8)
        t0 = time.perf_counter()
        out = comp.compress(payload) + comp.flush(zlib.Z_SYNC_FLUSH)
        t_ctx += time.perf_counter() - t0
        ctx_bytes += len(out) - 4  # RFC 7692 drops the trailing 00 00 ff ff
        t0 = time.perf_counter()
        one = zlib.compressobj(level, zlib.DEFLATED, -15, 8)
        out = one.compress(payload) + one.flush(zlib.Z_SYNC_FLUSH)
        t_alone += time.perf_counter() - t0
        alone_bytes += len(out) - 4
    return ctx_bytes, alone_bytes, t_ctx, t_alone


def header_len(n):
    return 2 if n < 126 else 4 if n < 65536 else 10


def report(records, moves, secs):
    out = {"moves": moves, "frames": len(records)}
    total_payload = sum(r[4] for r in records)
    total_wire = sum(r[5] for r in records)
    out["bytes_per_move_payload"] = total_payload / moves
    out["bytes_per_move_wire"] = total_wire / moves
    out["frames_per_move"] = len(records) / moves
    kinds = defaultdict(lambda: [0, 0])
    for r in records:
        k = kinds[(r[1], r[3])]
        k[0] += 1
        k[1] += r[4]
    out["by_audience_and_kind"] = {
        f"{a} {k}": {"frames": v[0], "bytes": v[1], "mean": v[1] / v[0], "per_move": v[1] / moves}
        for (a, k), v in sorted(kinds.items())
    }
    # Patch operations by path shape, per audience.
    paths = defaultdict(lambda: [0, 0])
    ops_per_patch = Counter()
    head_bytes = 0
    for r in records:
        if r[3] != "patch":
            continue
        msg = json.loads(r[6])
        ops_per_patch[len(msg["ops"])] += 1
        ops_bytes = 0
        for op in msg["ops"]:
            b = len(json.dumps(op, separators=(",", ":"), ensure_ascii=False).encode())
            ops_bytes += b
            key = (r[1], op["op"], shape(op["path"]))
            paths[key][0] += 1
            paths[key][1] += b
        head_bytes += r[4] - ops_bytes
    out["patch_envelope_bytes_per_move"] = head_bytes / moves
    out["ops_per_patch"] = dict(sorted(ops_per_patch.items()))
    out["paths"] = [
        {"audience": a, "op": o, "path": p, "count": v[0], "per_move": v[0] / moves,
         "bytes": v[1], "bytes_per_move": v[1] / moves}
        for (a, o, p), v in sorted(paths.items(), key=lambda kv: -kv[1][1])
    ]
    for level in (1, 6):
        ctx, alone, t_ctx, t_alone = deflate_stats(records, level)
        # Wire bytes: payload compressed + a frame header each.
        hdr = sum(header_len(1) for _ in records)
        out[f"deflate_level{level}"] = {
            "context_takeover_bytes_per_move": (ctx + 2 * len(records)) / moves,
            "no_context_bytes_per_move": (alone + 2 * len(records)) / moves,
            "context_ratio": ctx / total_payload,
            "no_context_ratio": alone / total_payload,
            "zlib_us_per_frame_context": t_ctx / len(records) * 1e6,
            "zlib_us_per_frame_alone": t_alone / len(records) * 1e6,
        }
    out["seconds"] = secs
    return out


def print_report(rep):
    print(f"moves {rep['moves']}, frames {rep['frames']} ({rep['frames_per_move']:.2f} per move)")
    print(f"bytes per move across the connections: {rep['bytes_per_move_payload']:.0f} payload, "
          f"{rep['bytes_per_move_wire']:.0f} with frame headers")
    print(f"patch framing (type, battle_id, seq, req, brackets) per move: "
          f"{rep['patch_envelope_bytes_per_move']:.0f}")
    print("\nby audience and kind: frames, mean bytes, bytes per move")
    for k, v in rep["by_audience_and_kind"].items():
        print(f"  {k:28} {v['frames']:7} {v['mean']:8.0f} {v['per_move']:8.1f}")
    print("\nops per patch:", rep["ops_per_patch"])
    print("\npatch operations by path (top 40): audience op path, per move, bytes per move")
    for p in rep["paths"][:40]:
        print(f"  {p['audience']:10} {p['op']:8} {p['path']:40} {p['per_move']:6.2f} {p['bytes_per_move']:8.1f}")
    for level in (1, 6):
        d = rep[f"deflate_level{level}"]
        print(f"\npermessage-deflate level {level}: context takeover {d['context_takeover_bytes_per_move']:.0f} "
              f"bytes/move (ratio {d['context_ratio']:.3f}, {d['zlib_us_per_frame_context']:.1f} us/frame); "
              f"no context {d['no_context_bytes_per_move']:.0f} bytes/move (ratio {d['no_context_ratio']:.3f}, "
              f"{d['zlib_us_per_frame_alone']:.1f} us/frame)")


CARD_STATIC = ("name", "text", "sigil", "type", "cost", "value")


def strip_card(v):
    """A hand card as a reference: what a client cannot look up in a card list it holds."""
    if isinstance(v, dict) and "card" in v and "id" in v:
        return {k: x for k, x in v.items() if k not in CARD_STATIC}
    return v


def trim(msg, audience, views, conn, which):
    """`msg` (a patch or snapshot as a dict) with the trimmings in `which` applied:
    clocks   - a running clock shows its deadline only (no bank_ms while it runs), and a
               clock's change is one operation on /clocks/N
    clears   - a list emptied by several removes is one replace with []
    cards    - hand cards carry their id, card and synergy flag only (the card's words and
               numbers come from the ruleset's card list, sent once)
    log      - new log lines travel as one "log" array of the patch, not one add each
    counts   - a seat is not sent its own hand_count (its hand's length says it)
    turnclock - a seat's clock runs for its whole turn (the increment once per turn), so
               only a change of whose decision is awaited moves the clocks
    compact  - each operation as an array [op, path, value] with a one-letter op, not an
               RFC 6902 object (a protocol change)
    """
    msg = json.loads(json.dumps(msg))
    if msg.get("type") == "snapshot":
        view = msg.get("view") or {}
        if "cards" in which and isinstance(view.get("game"), dict):
            for side in view["game"].get("sides", []):
                if isinstance(side, dict) and isinstance(side.get("hand"), list):
                    side["hand"] = [strip_card(c) for c in side["hand"]]
        return msg
    if msg.get("type") != "patch":
        return msg
    ops = msg["ops"]
    out = []
    if "clocks" in which:
        after = views[conn]
        clocks = (after or {}).get("clocks") or []
        touched = {}
        rest = []
        for op in ops:
            m = re.match(r"^/clocks/(\d+)/(bank_ms|deadline)$", op["path"])
            if m:
                touched.setdefault(int(m.group(1)), []).append(op)
            else:
                rest.append(op)
        for seat, seat_ops in sorted(touched.items()):
            c = clocks[seat] if seat < len(clocks) else {}
            running = c.get("deadline") is not None
            value = {"deadline": c.get("deadline")} if running else {"bank_ms": c.get("bank_ms")}
            was = [o for o in seat_ops if o["path"].endswith("deadline")]
            # A running clock whose deadline did not move changed only its bank: not shown.
            if running and not was:
                continue
            rest.append({"op": "replace", "path": f"/clocks/{seat}", "value": value})
        ops = rest
    if "turnclock" in which:
        awaited = any(o["path"].startswith("/to_act") for o in ops)
        if not awaited:
            ops = [o for o in ops if not o["path"].startswith("/clocks/")]
    if "clears" in which:
        merged = []
        i = 0
        while i < len(ops):
            op = ops[i]
            j = i
            while j + 1 < len(ops) and ops[j + 1]["op"] == "remove" and ops[j + 1]["path"] == op["path"] and op["op"] == "remove":
                j += 1
            if j > i:
                merged.append({"op": "replace", "path": op["path"].rsplit("/", 1)[0], "value": []})
            else:
                merged.append(op)
            i = j + 1
        ops = merged
    if "cards" in which:
        ops = [dict(o, value=strip_card(o["value"])) if "value" in o and "/hand/" in o["path"] else o for o in ops]
    if "counts" in which and audience.startswith("seat"):
        seat = audience[-1]
        ops = [o for o in ops if o["path"] != f"/game/sides/{seat}/hand_count"]
    if "log" in which:
        lines = [o["value"] for o in ops if o["op"] == "add" and re.match(r"^/game/log/\d+$", o["path"])]
        ops = [o for o in ops if not (o["op"] == "add" and re.match(r"^/game/log/\d+$", o["path"]))]
        if lines:
            msg["log"] = lines
    if "compact" in which:
        letter = {"add": "a", "remove": "d", "replace": "r", "move": "m", "copy": "c", "test": "t"}
        ops = [[letter[o["op"]], o["path"]] + ([o["value"]] if "value" in o else []) for o in ops]
    msg["ops"] = ops
    return msg


def what_if(path, moves):
    """Bytes per move of the recorded frames under each trimming (see `trim`)."""
    recs = [json.loads(line) for line in open(path)]
    sets = [(), ("clocks",), ("turnclock",), ("clears",), ("cards",), ("log",), ("counts",),
            ("compact",), ("clocks", "clears", "cards", "log", "counts"),
            ("clocks", "turnclock", "clears", "cards", "log", "counts"),
            ("clocks", "turnclock", "clears", "cards", "log", "counts", "compact")]
    print("\nwhat-if (bytes per move across the connections; deflate: per connection with "
          "context takeover, and once per frame without it, level 1):")
    for which in sets:
        views = {}
        total = 0
        comp = {}
        ctx = 0
        alone = 0
        for r in recs:
            msg = json.loads(r["text"])
            conn = r["conn"]
            if msg.get("type") == "snapshot":
                views[conn] = msg["view"]
            elif msg.get("type") == "patch":
                views[conn] = apply_patch(views.get(conn), msg["ops"])
            text = json.dumps(trim(msg, r["audience"], views, conn, which),
                              separators=(",", ":"), ensure_ascii=False).encode() if which else r["text"].encode()
            n = len(text)
            total += n + header_len(n)
            c = comp.setdefault(conn, zlib.compressobj(1, zlib.DEFLATED, -15, 8))
            ctx += len(c.compress(text) + c.flush(zlib.Z_SYNC_FLUSH)) - 4 + 2
            one = zlib.compressobj(1, zlib.DEFLATED, -15, 8)
            alone += len(one.compress(text) + one.flush(zlib.Z_SYNC_FLUSH)) - 4 + 2
        name = "+".join(which) or "as recorded"
        print(f"  {name:40} {total / moves:7.0f}   deflate ctx {ctx / moves:6.0f}   per frame {alone / moves:6.0f}")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("url")
    p.add_argument("--battles", type=int, default=40)
    p.add_argument("--ruleset", default="synergy")
    p.add_argument("--sample", default="pvp")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--protocol", type=int, default=1)
    p.add_argument("--json")
    p.add_argument("--frames")
    p.add_argument("--what-if", metavar="FRAMES", dest="what_if")
    p.add_argument("--moves", type=int, help="moves of the --what-if recording")
    args = p.parse_args()
    if args.what_if:
        what_if(args.what_if, args.moves)
        return
    records, moves, secs = play(args)
    if args.frames:
        with open(args.frames, "w") as f:
            for conn, aud, battle, kind, n, wire, payload in records:
                f.write(json.dumps({"conn": conn, "audience": aud, "battle": battle,
                                    "kind": kind, "text": payload.decode()}) + "\n")
    rep = report(records, moves, secs)
    print_report(rep)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rep, f, indent=1)
    if args.frames:
        what_if(args.frames, moves)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""The map workload of crdt-and-sync.md section 2.2 with pycrdt (Yrs) and loro, printing the same
figure names as drawtogether-bench, one JSON object per line.

    compare_crdts.py [--keys N] [--libs pycrdt,pycrdt+sqlite,loro]

Each (library, scenario) runs in a fresh child process, so each RSS figure is its own. Keys are
`stroke-%06d`, values 200 characters of base64 of 150 random bytes, every write its own
transaction, peers with ids 1 and 2; sync is state-vector style (each side's vector, the diff the
other lacks, applied crosswise) with an observer on the receiving map, then a convergence check.
A library that is not installed is reported on stderr and skipped.

`pycrdt+sqlite` is pycrdt with every update made durable the way a Yjs app with a persistence
provider does it: each update (a local write's, or a received delta) appended to a SQLite table in
its own transaction (Python's sqlite3, WAL, synchronous=NORMAL), and reopening reads every row and
applies them to a fresh document. It reports the write, apply, reopen and live figures.
"""
import argparse
import base64
import json
import os
import random
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import time

SCENARIOS = ["disjoint", "overlap", "overwrite", "delete-half"]


def rss_mb():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024 / 1e6
    return 0.0


def emit(lib, name, value, unit, **details):
    record = {"figure": name, "value": value, "unit": unit, "lib": lib}
    record.update(details)
    print(json.dumps(record), flush=True)


def key(index):
    return "stroke-%06d" % index


class Values:
    """Seeded 200-character base64 values: nothing for a compressor to find."""

    def __init__(self, seed):
        self.random = random.Random(seed)

    def next(self):
        return base64.b64encode(self.random.randbytes(150)).decode()


def plan(scenario, keys, values):
    """(A's writes, A's deletes, B's writes) for a scenario."""
    if scenario == "disjoint":
        return ([(key(i), values.next()) for i in range(keys // 2)], [],
                [(key(i), values.next()) for i in range(keys // 2, keys)])
    if scenario == "overlap":
        return ([(key(i), values.next()) for i in range(keys)], [],
                [(key(i), values.next()) for i in range(keys)])
    writes = [(key(i), values.next()) for _ in range(5) for i in range(keys)]
    deletes = [key(i * 2) for i in range(keys // 2)] if scenario == "delete-half" else []
    return writes, deletes, []


class PycrdtPeer:
    name = "pycrdt"

    def __init__(self, peer_id):
        import pycrdt
        self.pycrdt = pycrdt
        self.doc = pycrdt.Doc(client_id=peer_id)
        self.map = pycrdt.Map()
        self.doc["m"] = self.map
        self.events = 0

    def write(self, k, v):
        with self.doc.transaction():
            self.map[k] = v

    def delete(self, k):
        with self.doc.transaction():
            del self.map[k]

    def observe(self):
        def handler(event):
            self.events += 1
        self.subscription = self.map.observe(handler)

    def versions(self):
        return self.doc.get_state()

    def changes(self, versions):
        return self.doc.get_update(versions)

    def apply(self, update):
        self.doc.apply_update(update)

    def full_state(self):
        return self.doc.get_update()

    def contents(self):
        return self.map.to_py()

    @classmethod
    def reopen(cls, state):
        peer = cls(99)
        peer.apply(state)
        return peer.contents()

    def single_update_stream(self):
        """Updates as the library emits them per transaction (for the live figure)."""
        updates = []
        self.subscription_out = self.doc.observe(lambda event: updates.append(event.update))
        return updates


class LoroPeer:
    name = "loro"

    def __init__(self, peer_id):
        import loro
        self.loro = loro
        self.doc = loro.LoroDoc()
        self.doc.peer_id = peer_id
        self.map = self.doc.get_map("m")
        self.events = 0

    def write(self, k, v):
        self.map.insert(k, v)
        self.doc.commit()

    def delete(self, k):
        self.map.delete(k)
        self.doc.commit()

    def observe(self):
        def handler(event):
            self.events += 1
        self.subscription = self.doc.subscribe_root(handler)

    def versions(self):
        return self.doc.oplog_vv.encode()

    def changes(self, versions):
        return self.doc.export(self.loro.ExportMode.Updates(self.loro.VersionVector.decode(versions)))

    def apply(self, update):
        self.doc.import_(update)

    def full_state(self):
        return self.doc.export(self.loro.ExportMode.Snapshot())

    def state_only(self):
        return self.doc.export(self.loro.ExportMode.StateOnly(None))

    def contents(self):
        return self.doc.get_deep_value()["m"]

    @classmethod
    def reopen(cls, state):
        peer = cls(99)
        peer.apply(state)
        return peer.contents()

    def single_update_stream(self):
        updates = []
        self.subscription_out = self.doc.subscribe_local_update(lambda update: updates.append(update) or True)
        return updates


class PycrdtSqlitePeer(PycrdtPeer):
    """pycrdt whose every update is appended to a SQLite table in a transaction of its own."""

    name = "pycrdt+sqlite"
    directory = None

    def __init__(self, peer_id):
        super().__init__(peer_id)
        if PycrdtSqlitePeer.directory is None:
            PycrdtSqlitePeer.directory = tempfile.mkdtemp(prefix="compare-pycrdt-sqlite-")
        self.path = os.path.join(PycrdtSqlitePeer.directory, "peer-%d.sqlite" % peer_id)
        self.database = self.open_database(self.path)
        self.database.execute("CREATE TABLE IF NOT EXISTS updates(id INTEGER PRIMARY KEY, data BLOB NOT NULL)")
        self.pending = []
        self.subscription_store = self.doc.observe(lambda event: self.pending.append(event.update))

    @staticmethod
    def open_database(path):
        database = sqlite3.connect(path, isolation_level=None)
        database.execute("PRAGMA journal_mode=WAL")
        database.execute("PRAGMA synchronous=NORMAL")
        return database

    def store(self, update):
        self.database.execute("BEGIN")
        self.database.execute("INSERT INTO updates(data) VALUES(?)", (update,))
        self.database.execute("COMMIT")

    def store_pending(self):
        updates, self.pending = self.pending, []
        for update in updates:
            self.store(update)

    def write(self, k, v):
        super().write(k, v)
        self.store_pending()

    def delete(self, k):
        super().delete(k)
        self.store_pending()

    def apply(self, update):
        # The received bytes are what the provider stores; the doc's own update event is not.
        self.doc.apply_update(update)
        self.pending = []
        self.store(update)

    def reopen_stored(self):
        """A fresh process's open: read every stored row and apply each to a new document."""
        database = self.open_database(self.path)
        doc = self.pycrdt.Doc(client_id=99)
        doc["m"] = reopened = self.pycrdt.Map()
        for (update,) in database.execute("SELECT data FROM updates ORDER BY id"):
            doc.apply_update(update)
        contents = reopened.to_py()
        database.close()
        return contents

    @staticmethod
    def remove_files():
        if PycrdtSqlitePeer.directory is not None:
            shutil.rmtree(PycrdtSqlitePeer.directory, ignore_errors=True)


LIBS = {"pycrdt": PycrdtPeer, "pycrdt+sqlite": PycrdtSqlitePeer, "loro": LoroPeer}


def run_scenario(lib, scenario, keys):
    start_rss = rss_mb()
    cls = LIBS[lib]
    values = Values(0x5EED0000 + SCENARIOS.index(scenario))
    writes_a, deletes_a, writes_b = plan(scenario, keys, values)
    a, b = cls(1), cls(2)
    prefix = "replica." + scenario

    started = time.perf_counter()
    for k, v in writes_a:
        a.write(k, v)
    for k in deletes_a:
        a.delete(k)
    emit(lib, prefix + ".write", time.perf_counter() - started, "s", writes=len(writes_a) + len(deletes_a))
    for k, v in writes_b:
        b.write(k, v)

    a.observe()
    b.observe()
    versions_a, versions_b = a.versions(), b.versions()
    emit(lib, prefix + ".versions", len(versions_b), "bytes")
    started = time.perf_counter()
    delta_ab = a.changes(versions_b)
    emit(lib, prefix + ".encode", time.perf_counter() - started, "s")
    delta_ba = b.changes(versions_a)
    emit(lib, prefix + ".delta.a_to_b", len(delta_ab), "bytes")
    emit(lib, prefix + ".delta.b_to_a", len(delta_ba), "bytes")
    started = time.perf_counter()
    b.apply(delta_ab)
    emit(lib, prefix + ".apply", time.perf_counter() - started, "s", observer_deliveries=b.events)
    started = time.perf_counter()
    a.apply(delta_ba)
    emit(lib, prefix + ".apply.b_to_a", time.perf_counter() - started, "s")
    contents = a.contents()
    if contents != b.contents():
        raise SystemExit("%s %s: the peers differ after sync" % (lib, scenario))
    expected = keys - len(deletes_a)
    if len(contents) != expected:
        raise SystemExit("%s %s: %d keys, expected %d" % (lib, scenario, len(contents), expected))

    state = b.full_state()
    emit(lib, prefix + ".state", len(state), "bytes")
    if hasattr(b, "state_only"):
        emit(lib, prefix + ".state_only", len(b.state_only()), "bytes")
    started = time.perf_counter()
    reopened = b.reopen_stored() if hasattr(b, "reopen_stored") else cls.reopen(state)
    emit(lib, prefix + ".reopen", time.perf_counter() - started, "s", note="load the full state and materialize the map")
    if len(reopened) != expected:
        raise SystemExit("%s %s: reopened with %d keys" % (lib, scenario, len(reopened)))
    rss = rss_mb()
    emit(lib, prefix + ".rss", rss, "MB", delta_mb=rss - start_rss)


def run_live(lib, updates):
    cls = LIBS[lib]
    a, b = cls(1), cls(2)
    b.observe()
    outgoing = a.single_update_stream()
    values = Values(0x11FE)
    write_seconds = apply_seconds = 0.0
    total_bytes = 0
    for index in range(updates):
        value = values.next()
        started = time.perf_counter()
        a.write(key(index), value)
        write_seconds += time.perf_counter() - started
        update = outgoing.pop()
        total_bytes += len(update)
        started = time.perf_counter()
        b.apply(update)
        apply_seconds += time.perf_counter() - started
    if len(b.contents()) != updates:
        raise SystemExit("%s live: B has %d keys" % (lib, len(b.contents())))
    emit(lib, "live.update_bytes", total_bytes / updates, "bytes", updates=updates)
    emit(lib, "live.apply", apply_seconds * 1e6 / updates, "us", observer_deliveries=b.events)
    emit(lib, "live.write", write_seconds * 1e6 / updates, "us")
    emit(lib, "live.rss", rss_mb(), "MB")


def available(lib):
    try:
        __import__(lib.split("+")[0])
        return True
    except ImportError as error:
        print("compare_crdts: %s is not installed (%s); skipping it" % (lib, error), file=sys.stderr)
        return False


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keys", type=int, default=10000)
    parser.add_argument("--libs", default="pycrdt,pycrdt+sqlite,loro")
    parser.add_argument("--worker", nargs=2, metavar=("LIB", "SCENARIO"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        lib, scenario = args.worker
        try:
            if scenario == "live":
                run_live(lib, args.keys)
            else:
                run_scenario(lib, scenario, args.keys)
        finally:
            PycrdtSqlitePeer.remove_files()
        return
    failed = False
    for lib in args.libs.split(","):
        if not available(lib):
            continue
        for scenario in SCENARIOS + ["live"]:
            result = subprocess.run([sys.executable, __file__, "--keys", str(args.keys), "--worker", lib, scenario])
            if result.returncode != 0:
                print("compare_crdts: %s %s failed (exit %d)" % (lib, scenario, result.returncode), file=sys.stderr)
                failed = True
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()

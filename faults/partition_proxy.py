#!/usr/bin/env python3
"""A loopback TCP proxy whose links go up and down at random: the partitions of faults/run.

    partition_proxy.py --seed S --link NAME:LISTEN_PORT:TARGET_PORT [--link ...]

Every 0.3-1.2 s each link is independently cut (probability 0.35) or restored. Cutting a link
closes its open connections and refuses new ones (accepted, then closed at once), which is what
a peer sees when the network between two machines goes away. SIGUSR1 heals every link for good;
SIGTERM stops the proxy. It only ever listens on and connects to 127.0.0.1. Each change is
logged on stderr; on exit it prints `partitions N` (how many times a link was cut).
"""
import argparse
import asyncio
import random
import signal
import sys


class Link:
    def __init__(self, name, listen_port, target_port):
        self.name = name
        self.listen_port = listen_port
        self.target_port = target_port
        self.up = True
        self.connections = set()

    async def handle(self, reader, writer):
        if not self.up:
            writer.close()
            return
        try:
            target_reader, target_writer = await asyncio.open_connection("127.0.0.1", self.target_port)
        except OSError:
            writer.close()
            return
        pair = (writer, target_writer)
        self.connections.add(pair)
        try:
            await asyncio.gather(self.pump(reader, target_writer), self.pump(target_reader, writer))
        finally:
            self.connections.discard(pair)
            for end in pair:
                end.close()

    async def pump(self, reader, writer):
        try:
            while self.up:
                data = await reader.read(65536)
                if not data:
                    break
                writer.write(data)
                await writer.drain()
        except (ConnectionError, OSError):
            pass
        finally:
            writer.close()

    def cut(self):
        self.up = False
        for pair in list(self.connections):
            for end in pair:
                transport = end.transport
                if transport is not None:
                    transport.abort()
        self.connections.clear()


async def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--link", action="append", required=True)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    links = []
    for spec in args.link:
        name, listen_port, target_port = spec.split(":")
        links.append(Link(name, int(listen_port), int(target_port)))
    servers = [await asyncio.start_server(link.handle, "127.0.0.1", link.listen_port) for link in links]
    healed = asyncio.Event()
    stopped = asyncio.Event()
    loop = asyncio.get_running_loop()
    loop.add_signal_handler(signal.SIGUSR1, healed.set)
    loop.add_signal_handler(signal.SIGTERM, stopped.set)
    print("partition_proxy: ready", file=sys.stderr, flush=True)
    partitions = 0
    while not stopped.is_set():
        if healed.is_set():
            for link in links:
                if not link.up:
                    link.up = True
                    print("partition_proxy: %s healed" % link.name, file=sys.stderr, flush=True)
            await stopped.wait()
            break
        for link in links:
            down = rng.random() < 0.35
            if down and link.up:
                link.cut()
                partitions += 1
                print("partition_proxy: %s cut" % link.name, file=sys.stderr, flush=True)
            elif not down and not link.up:
                link.up = True
                print("partition_proxy: %s up" % link.name, file=sys.stderr, flush=True)
        try:
            await asyncio.wait_for(healed.wait(), timeout=rng.uniform(0.3, 1.2))
        except asyncio.TimeoutError:
            pass
    for server in servers:
        server.close()
    print("partitions %d" % partitions, flush=True)


if __name__ == "__main__":
    asyncio.run(main())

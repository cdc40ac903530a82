// swift-tools-version:6.0
import PackageDescription

// Module graph (see DESIGN.md): pure cores at the bottom, C and I/O adapters beside them, the
// executable on top. A pure target depends only on pure targets.
let uncheckedExclusivity: [SwiftSetting] = [
    .unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))
]

let package = Package(
    name: "DrawTogether",
    products: [
        .executable(name: "drawtogether", targets: ["drawtogether"])
    ],
    targets: [
        // System libraries: a modulemap and a shim.h each (macros Swift cannot import become functions).
        .systemLibrary(
            name: "CNcurses", path: "Sources/CNcurses", providers: [.apt(["libncursesw5-dev"])]),
        .systemLibrary(
            name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(
            name: "CSodium", path: "Sources/CSodium", pkgConfig: "libsodium",
            providers: [.apt(["libsodium-dev"])]),
        .systemLibrary(
            name: "CLibPQ", path: "Sources/CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        // epoll(7): glibc's, whose header Swift's Glibc module leaves out (EventRuntime's loop).
        .systemLibrary(name: "CEpoll", path: "Sources/CEpoll"),
        // pipe2(2) and posix_spawn's chdir, also left out (TestSupport's SpawnedProcess).
        .systemLibrary(name: "CSpawn", path: "Sources/CSpawn"),
        .systemLibrary(name: "CPrefetch", path: "Sources/CPrefetch"),

        // Pure libraries. ByteCoding (the one byte reader and writer), JSONText (the one JSON reader,
        // quoter and text position) and MonotonicTime (the instant sync is timed by; no clock is
        // read there) depend on nothing.
        .target(name: "ByteCoding"),
        .target(name: "JSONText"),
        .target(name: "MonotonicTime"),
        .target(name: "StrokeKit", dependencies: ["ByteCoding", "JSONText", "CPrefetch"]),
        // The replica without its disk: documents, merge, DQL, queries, codecs, patches.
        .target(
            name: "ReplicaCore", dependencies: ["ByteCoding", "JSONText"], swiftSettings: uncheckedExclusivity
        ),

        // Adapters. EventRuntime: one poll(2) loop per process (real clock injected), sockets, the
        // wake-up pipe, and the manual-time loop with in-memory connections that tests drive (as
        // NIOEmbedded). ReplicaStore keeps ReplicaCore's documents in SQLite, with transactions and
        // observers.
        .target(name: "EventRuntime", dependencies: ["MonotonicTime", "CEpoll"]),
        .target(
            name: "ReplicaStore", dependencies: ["ReplicaCore", "CSQLite"],
            swiftSettings: uncheckedExclusivity),
        // RelayStore: the relay tier's PostgreSQL event store (libpq on the event loop).
        .target(
            name: "RelayStore",
            dependencies: [
                "ByteCoding", "ReplicaCore", "ReplicaSync", "CLibPQ", "EventRuntime", "MonotonicTime",
            ]),
        .target(
            name: "ReplicaSync",
            dependencies: [
                "ByteCoding", "ReplicaCore", "ReplicaStore", "CSodium", "MonotonicTime", "EventRuntime",
            ]),
        .target(
            name: "DrawingSync",
            dependencies: ["ByteCoding", "StrokeKit", "ReplicaCore", "ReplicaStore", "CPrefetch"]),
        .target(name: "TerminalCanvas", dependencies: ["StrokeKit", "CNcurses", "EventRuntime"]),

        // The executable.
        .executableTarget(
            name: "drawtogether",
            dependencies: [
                "StrokeKit", "ReplicaCore", "ReplicaStore", "ReplicaSync", "DrawingSync", "TerminalCanvas",
                "MonotonicTime", "EventRuntime", "RelayStore",
            ]),

        // A test helper: writes to a replica until killed (ReplicaStoreTests' crash test).
        .executableTarget(name: "replica-crash-writer", dependencies: ["ReplicaStore"]),
        // Fuzz targets (fuzz/README.md): plain builds make corpus replayers, `fuzz/run` builds them
        // with -sanitize=fuzzer -DFUZZING for libFuzzer. One line per target.
        .target(name: "FuzzSupport"),
        .executableTarget(name: "FuzzDQL", dependencies: ["FuzzSupport", "ReplicaCore"]),
        .executableTarget(name: "FuzzJSON", dependencies: ["FuzzSupport", "JSONText", "ReplicaCore"]),
        .executableTarget(name: "FuzzSyncFrames", dependencies: ["FuzzSupport", "ReplicaSync"]),
        .executableTarget(name: "FuzzStrokeCodec", dependencies: ["FuzzSupport", "StrokeKit"]),

        // The benchmark (`swift run -c release drawtogether-bench`); built by CI, never run by tests.
        // TestSupport gives it the tests' throwaway PostgreSQL cluster for the `relay.pg.*` figures.
        .executableTarget(
            name: "drawtogether-bench",
            dependencies: [
                "JSONText", "StrokeKit", "ReplicaCore", "ReplicaStore", "ReplicaSync", "DrawingSync",
                "TerminalCanvas", "EventRuntime", "CSQLite", "TestSupport",
            ]),

        // Tests mirror the libraries; TestSupport holds seeded generators, a manual clock and
        // temp-dir helpers, StrokeKitTestSupport the stroke fixtures, ReplicaCoreTestSupport the
        // random workloads and the convergence harness that the core's and the store's tests share.
        .target(name: "TestSupport", dependencies: ["CSpawn"], path: "Sources/TestSupport"),
        .target(name: "StrokeKitTestSupport", dependencies: ["StrokeKit"]),
        .target(name: "ReplicaCoreTestSupport", dependencies: ["ReplicaCore", "TestSupport"]),
        .testTarget(name: "ByteCodingTests", dependencies: ["ByteCoding"]),
        .testTarget(name: "JSONTextTests", dependencies: ["JSONText", "TestSupport"]),
        .testTarget(name: "EventRuntimeTests", dependencies: ["EventRuntime", "MonotonicTime"]),
        .testTarget(
            name: "StrokeKitTests", dependencies: ["StrokeKit", "StrokeKitTestSupport", "TestSupport"]),
        .testTarget(
            name: "ReplicaCoreTests", dependencies: ["ReplicaCore", "ReplicaCoreTestSupport", "TestSupport"]),
        .testTarget(
            name: "ReplicaStoreTests",
            dependencies: [
                "ReplicaCore", "ReplicaCoreTestSupport", "ReplicaStore", "TestSupport",
                "replica-crash-writer",
            ]),
        .testTarget(
            name: "RelayStoreTests",
            dependencies: [
                "RelayStore", "ReplicaCore", "ReplicaCoreTestSupport", "EventRuntime", "MonotonicTime",
                "TestSupport", "ReplicaSync", "ReplicaStore",
            ]),
        .testTarget(
            name: "ReplicaSyncTests",
            dependencies: [
                "ReplicaSync", "ReplicaCore", "ReplicaStore", "CSodium", "MonotonicTime", "EventRuntime",
                "TestSupport",
            ]),
        .testTarget(
            name: "DrawingSyncTests",
            dependencies: [
                "DrawingSync", "StrokeKit", "StrokeKitTestSupport", "ReplicaCore", "ReplicaStore",
                "TestSupport",
            ]),
        .testTarget(
            name: "TerminalCanvasTests",
            dependencies: ["TerminalCanvas", "StrokeKit", "StrokeKitTestSupport", "CNcurses", "TestSupport"]),
        .testTarget(
            name: "DrawTogetherTests",
            dependencies: [
                "drawtogether", "ReplicaCore", "ReplicaStore", "ReplicaSync", "DrawingSync", "StrokeKit",
                "MonotonicTime", "EventRuntime", "TestSupport", "RelayStore",
            ]),
    ]
)

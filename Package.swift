// swift-tools-version:6.0
import PackageDescription

// Module graph (see DESIGN.md): pure cores at the bottom, C adapters beside them, the executable on top.
let package = Package(
    name: "DrawTogether",
    products: [
        .executable(name: "drawtogether", targets: ["drawtogether"]),
    ],
    targets: [
        // System libraries: a modulemap and a shim.h each (macros Swift cannot import become functions).
        .systemLibrary(name: "CNcurses", path: "Sources/CNcurses",
                       providers: [.apt(["libncursesw5-dev"])]),
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite", pkgConfig: "sqlite3",
                       providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CSodium", path: "Sources/CSodium", pkgConfig: "libsodium",
                       providers: [.apt(["libsodium-dev"])]),

        // Libraries.
        .target(name: "StrokeKit"),
        // Pure: the monotonic instant the sync session is timed by; no clock is read here.
        .target(name: "MonotonicTime"),
        // I/O: one poll(2) loop per process (real clock injected), sockets, the wake-up pipe, and
        // the manual-time loop with in-memory connections that tests drive (as NIOEmbedded).
        .target(name: "EventRuntime", dependencies: ["MonotonicTime"]),
        .target(name: "ReplicaStore", dependencies: ["CSQLite"]),
        .target(
            name: "ReplicaSync", dependencies: ["ReplicaStore", "CSodium", "MonotonicTime", "EventRuntime"]),
        .target(name: "DrawingSync", dependencies: ["StrokeKit", "ReplicaStore"]),
        .target(name: "TerminalCanvas", dependencies: ["StrokeKit", "CNcurses", "EventRuntime"]),

        // The executable.
        .executableTarget(
            name: "drawtogether",
            dependencies: [
                "StrokeKit", "ReplicaStore", "ReplicaSync", "DrawingSync", "TerminalCanvas", "MonotonicTime",
                "EventRuntime",
            ]),

        // A test helper: writes to a replica until killed (ReplicaStoreTests' crash test).
        .executableTarget(name: "replica-crash-writer", dependencies: ["ReplicaStore"]),
        // Fuzz targets (fuzz/README.md): plain builds make corpus replayers, `fuzz/run` builds them
        // with -sanitize=fuzzer -DFUZZING for libFuzzer. One line per target.
        .target(name: "FuzzSupport"),
        .executableTarget(name: "FuzzDQL", dependencies: ["FuzzSupport", "ReplicaStore"]),
        .executableTarget(name: "FuzzJSON", dependencies: ["FuzzSupport", "ReplicaStore"]),
        .executableTarget(name: "FuzzSyncFrames", dependencies: ["FuzzSupport", "ReplicaSync"]),
        .executableTarget(name: "FuzzStrokeCodec", dependencies: ["FuzzSupport", "StrokeKit"]),

        // The benchmark (`swift run -c release drawtogether-bench`); built by CI, never run by tests.
        .executableTarget(
            name: "drawtogether-bench",
            dependencies: [
                "StrokeKit", "ReplicaStore", "ReplicaSync", "DrawingSync", "TerminalCanvas", "EventRuntime",
            ]),

        // Tests mirror the libraries; TestSupport holds seeded generators and temp-dir helpers.
        .target(name: "TestSupport", path: "Sources/TestSupport"),
        .testTarget(name: "EventRuntimeTests", dependencies: ["EventRuntime", "MonotonicTime"]),
        .testTarget(name: "StrokeKitTests", dependencies: ["StrokeKit", "TestSupport"]),
        .testTarget(name: "ReplicaStoreTests", dependencies: ["ReplicaStore", "TestSupport", "replica-crash-writer"]),
        .testTarget(
            name: "ReplicaSyncTests",
            dependencies: ["ReplicaSync", "ReplicaStore", "CSodium", "MonotonicTime", "EventRuntime", "TestSupport"]),
        .testTarget(name: "DrawingSyncTests",
                    dependencies: ["DrawingSync", "StrokeKit", "ReplicaStore", "TestSupport"]),
        .testTarget(name: "TerminalCanvasTests", dependencies: ["TerminalCanvas", "StrokeKit", "CNcurses", "TestSupport"]),
        .testTarget(
            name: "DrawTogetherTests",
            dependencies: [
                "drawtogether", "ReplicaStore", "ReplicaSync", "DrawingSync", "StrokeKit", "MonotonicTime",
                "EventRuntime", "TestSupport",
            ]),
    ]
)

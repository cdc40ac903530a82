import DrawingSync
import ReplicaCore
import ReplicaStore
import StrokeKit
import TerminalCanvas

/// The drawing-level figures on one replica holding an N-stroke drawing: a coordinator flush when
/// one stroke changed (and when one is added), a full render of a 200x60 viewport, and the cold
/// open of the stored drawing to its first frame (in a fresh child process).
struct DrawingBench {
    static let drawingID = "bench-drawing"

    let strokes: Int
    let repetitions: Int
    let report: FigureReport
    /// Added to every figure's name: empty at the first scale, `.100k` and the like at others.
    var suffix = ""

    private func add(
        _ name: String, _ value: Double, _ unit: String, _ details: [(key: String, value: Figure.Detail)] = []
    ) {
        report.add(name + suffix, value, unit, details)
    }

    func run() throws {
        let stores = try TemporaryStores("drawing")
        let path = stores.path("replica")
        var sample = SampleDrawing(seed: 0xD0A7, peer: "bencha")
        let groups = sample.groups(strokes)
        var open = MemoryReading()
        var beforeIdleRelease = MemoryReading()
        var idleRelease = 0.0
        do {
            let replica = try Replica(directory: path, configuration: ReplicaConfiguration(peerID: PeerID(1)))
            let coordinator = DrawingSyncCoordinator(replica: replica, drawingID: Self.drawingID)
            coordinator.edit(now: 0) { drawing in
                for group in groups { drawing.insert(group) }
            }
            let initial = try BenchClock.measure { try coordinator.flush() }.seconds
            let valueBytes = coordinator.model.synced.values.reduce(0) { $0 + $1.value.utf8.count }
            add(
                "drawing.initial_flush", initial, "s",
                [
                    ("strokes", .number(Double(groups.count))), ("value_bytes", .number(Double(valueBytes))),
                    ("note", .text("all strokes written in one transaction")),
                ])
            try measureFlushes(coordinator, groups: groups, sample: &sample)
            measureRenders(coordinator.drawing)
            // As the app does once nothing has been drawn on screen for 3 s (`IdleHeapRelease`).
            beforeIdleRelease = MemoryReading()
            idleRelease = BenchClock.measure { coordinator.releaseHeap() }.seconds
            open = MemoryReading()
            // As the app does when it closes a drawing: the next open reads where the ink is.
            try coordinator.saveBoundsCache()
            coordinator.close()
        }
        let closed = MemoryReading()
        add("drawing.disk", Double(TemporaryStores.bytes(under: path)) / 1e6, "MB")
        // Resident while the drawing is open (as a user's process holds it): the heap in use is
        // the drawing and its replica; the freed blocks malloc keeps (the whole first flush's
        // statement and events, the renders' grids) count too, since they stay resident.
        add(
            "drawing.rss", open.resident, "MB",
            [
                ("anonymous_mb", .number(open.anonymous)), ("heap_in_use_mb", .number(open.heapInUse)),
                ("heap_free_kept_mb", .number(open.heapFreeKept)),
                ("peak_mb", .number(closed.peak)), ("after_close_mb", .number(closed.resident)),
                ("after_close_heap_in_use_mb", .number(closed.heapInUse)),
                ("before_idle_release_mb", .number(beforeIdleRelease.resident)),
                ("idle_release_ms", .number(idleRelease * 1e3)),
                (
                    "note",
                    .text(
                        "VmRSS with the drawing open after the flushes and renders, once the app's idle release gave freed heap back; peak is VmHWM"
                    )
                ),
            ])
        // The cold opens run in fresh processes: nothing of this drawing is in their heaps.
        for scenario in ["cold-open:", "cold-open-whole:"] {
            try WorkerProcess.run(
                section: .drawing, scenario: scenario + suffix + ":" + path, arguments: [], report: report)
        }
    }

    private func measureFlushes(
        _ coordinator: DrawingSyncCoordinator, groups: [StrokeGroup], sample: inout SampleDrawing
    ) throws {
        var random = BenchRandom(seed: 0xF1A5)
        var changed = DurationSample()
        for round in 0..<repetitions {
            let original = groups[Int.random(in: 0..<groups.count, using: &random)]
            guard let current = coordinator.drawing[original.key],
                let edited = SampleDrawing.extended(current)
            else {
                continue
            }
            coordinator.edit(now: Int64(round) * 1_000) { $0.insert(edited) }
            changed.add(try BenchClock.measure { try coordinator.flush() }.seconds)
        }
        var added = DurationSample()
        for round in 0..<repetitions {
            guard let group = sample.nextGroup() else { continue }
            coordinator.edit(now: Int64(round) * 1_000) { $0.insert(group) }
            added.add(try BenchClock.measure { try coordinator.flush() }.seconds)
        }
        var swept = DurationSample()
        var sweepBytes: [Double] = []
        let eraser = MaskEraser(brush: EraserBrush(radius: 0.5))
        for round in 0..<repetitions {
            let original = groups[Int.random(in: 0..<groups.count, using: &random)]
            guard let current = coordinator.drawing[original.key], let piece = current.pieces.first,
                let sweepKey = StrokeKey(creationMilliseconds: Int64(round) + 1, peerSuffix: "benchb")
            else { continue }
            // A short pass across the middle of the stroke's first piece.
            let middle = piece.path[piece.path.count / 2].point
            let path = [
                CanvasPoint(x: middle.x - 1, y: middle.y - 1), CanvasPoint(x: middle.x + 1, y: middle.y + 1),
            ]
            let erased = current.addingPasses(eraser.sweep(along: path, near: current), toSweep: sweepKey)
            guard erased.pieces != current.pieces else { continue }
            coordinator.edit(now: Int64(round) * 1_000) { $0.insert(erased) }
            swept.add(try BenchClock.measure { try coordinator.flush() }.seconds)
            let value = coordinator.model.synced[current.key]?.sweepValues[sweepKey]
            sweepBytes.append(Double(value?.utf8.count ?? 0))
        }
        let note = "edit, diff, one transaction, the coordinator's observer patched with the entry it wrote"
        add(
            "drawing.flush.one_changed", changed.median * 1e3, "ms",
            [
                ("of_strokes", .number(Double(groups.count))),
                ("p90_ms", .number(changed.percentile(90) * 1e3)),
                ("runs", .number(Double(changed.count))), ("note", .text(note)),
            ])
        add(
            "drawing.flush.one_swept", swept.median * 1e3, "ms",
            [
                ("p90_ms", .number(swept.percentile(90) * 1e3)), ("runs", .number(Double(swept.count))),
                (
                    "sweep_value_bytes",
                    .number(sweepBytes.isEmpty ? 0 : sweepBytes.sorted()[sweepBytes.count / 2])
                ),
                (
                    "note",
                    .text("a mask-eraser pass across one stroke: one sweep entry written, the stroke not")
                ),
            ])
        add(
            "drawing.flush.one_added", added.median * 1e3, "ms",
            [("p90_ms", .number(added.percentile(90) * 1e3)), ("runs", .number(Double(added.count)))])
    }

    private func measureRenders(_ document: Drawing) {
        let groups = document.groups
        let viewport = CanvasViewport(screenWidth: 200, screenHeight: 61)  // 60 canvas rows + status bar
        for mode in [GlyphMode.block, .braille] {
            var canvasView = DurationSample()
            var raster = DurationSample()
            var inked = 0
            for _ in 0..<repetitions {
                canvasView.add(
                    BenchClock.measure { CanvasView(mode: mode).render(document, viewport: viewport) }.seconds
                )
                let (grid, seconds) = BenchClock.measure {
                    Raster.render(groups, viewport: Viewport(x: 0, y: 0, width: 200, height: 60), mode: mode)
                }
                raster.add(seconds)
                inked = grid.cells.filter { $0 != .blank }.count
            }
            add(
                "render.canvas_view.\(mode.rawValue)", canvasView.median * 1e3, "ms",
                [
                    ("strokes", .number(Double(document.count))), ("cells", .number(200 * 60)),
                    ("inked_cells", .number(Double(inked))),
                    ("note", .text("CanvasView.render, 200x60 canvas + status row")),
                ])
            add(
                "render.raster.\(mode.rawValue)", raster.median * 1e3, "ms",
                [("note", .text("StrokeKit Raster.render of the 200x60 viewport"))])
        }
        measurePresenceFrames(document, viewport: viewport)
        for mode in [GlyphMode.block, .braille] {
            measureEraseFrames(document, viewport: viewport, mode: mode)
        }
        measureRemoteChangeFrames(document, viewport: viewport)
        measurePanFrames(document, viewport: viewport)
    }

    /// The first frame after a mask erase: a dab of the eraser's default size at a random inked
    /// place on screen, applied to every group under it (as a drag of the mask eraser does), with
    /// the layer cached from the frame before.
    private func measureEraseFrames(_ document: Drawing, viewport: CanvasViewport, mode: GlyphMode) {
        var drawing = document
        let cache = CanvasLayerCache()
        let view = CanvasView(mode: mode)
        let eraser = MaskEraser(brush: EraserBrush(radius: 0.5))
        var random = BenchRandom(seed: 0xE2A5E)
        var frames = DurationSample()
        var erased: [Double] = []
        _ = view.render(drawing, viewport: viewport, cache: cache)
        for _ in 0..<max(repetitions, 20) {
            let centre = CanvasPoint(
                x: Double.random(in: 20..<180, using: &random), y: Double.random(in: 10..<50, using: &random))
            let reach = CellRect(x: Int(centre.x) - 2, y: Int(centre.y) - 2, width: 5, height: 5)
            var changed = 0
            for group in drawing.groups(in: reach) {
                let result = eraser.erase([group], along: [centre]).first
                if result != group, drawing.setGroup(result, for: group.key) { changed += 1 }
            }
            erased.append(Double(changed))
            frames.add(BenchClock.measure { view.render(drawing, viewport: viewport, cache: cache) }.seconds)
        }
        erased.sort()
        add(
            "render.after_erase_frame.\(mode.rawValue)", frames.median * 1e3, "ms",
            [
                ("p90_ms", .number(frames.percentile(90) * 1e3)),
                ("strokes_erased_median", .number(erased[erased.count / 2])),
                ("cells_redrawn", .number(Double(cache.redrawnCells))),
                ("note", .text("the frame after a mask-eraser dab, layer cached, dirty tiles redrawn")),
            ])
    }

    /// The first frame after a peer changed a stroke drawn long ago (one of the first tenth of
    /// the keys) that lies on screen: one more sample at its end.
    private func measureRemoteChangeFrames(_ document: Drawing, viewport: CanvasViewport) {
        var drawing = document
        let cache = CanvasLayerCache()
        let view = CanvasView(mode: .block)
        let old = Set(drawing.keys.prefix(max(1, drawing.count / 10)))
        var candidates = drawing.groups(in: viewport.visible).filter { old.contains($0.key) }
        var random = BenchRandom(seed: 0x2E307E)
        candidates.shuffle(using: &random)
        var frames = DurationSample()
        _ = view.render(drawing, viewport: viewport, cache: cache)
        for group in candidates.prefix(max(repetitions, 20)) {
            guard let current = drawing[group.key], let changed = SampleDrawing.extended(current) else {
                continue
            }
            drawing.insert(changed)
            frames.add(BenchClock.measure { view.render(drawing, viewport: viewport, cache: cache) }.seconds)
        }
        add(
            "render.after_remote_change_frame.block", frames.median * 1e3, "ms",
            [
                ("p90_ms", .number(frames.percentile(90) * 1e3)),
                ("runs", .number(Double(frames.count))),
                ("note", .text("the frame after a peer changed an old stroke on screen, layer cached")),
            ])
    }

    /// A frame after panning by 10 columns (right, then back left), layer cached.
    private func measurePanFrames(_ document: Drawing, viewport start: CanvasViewport) {
        let cache = CanvasLayerCache()
        let view = CanvasView(mode: .block)
        var viewport = start
        var frames = DurationSample()
        _ = view.render(document, viewport: viewport, cache: cache)
        for step in 0..<max(repetitions, 20) {
            viewport.pan(dx: step % 10 < 5 ? 10 : -10, dy: 0)
            frames.add(BenchClock.measure { view.render(document, viewport: viewport, cache: cache) }.seconds)
        }
        add(
            "render.pan_frame.block", frames.median * 1e3, "ms",
            [
                ("p90_ms", .number(frames.percentile(90) * 1e3)),
                ("layer_rasterised", .number(Double(cache.misses))),
                ("note", .text("the frame after a pan by 10 columns: cells moved, the new strip drawn")),
            ])
    }

    /// What a frame costs while a peer draws (presence arrives many times a second): the drawing
    /// is unchanged, so its layer comes from the cache and only the peer's stroke is added.
    private func measurePresenceFrames(_ document: Drawing, viewport: CanvasViewport) {
        let cache = CanvasLayerCache()
        let view = CanvasView(mode: .block)
        var frames = DurationSample()
        for step in 0..<max(repetitions, 20) {
            let cells = (0...(step % 40)).map { CanvasCell(x: 20 + $0 * 3, y: 10 + $0 % 30) }
            let peer = PeerPresence(
                name: "peer", colour: 46, cursor: cells[cells.count - 1], strokeInProgress: cells)
            frames.add(
                BenchClock.measure { view.render(document, viewport: viewport, peers: [peer], cache: cache) }
                    .seconds)
        }
        add(
            "render.presence_frame.block", frames.median * 1e3, "ms",
            [
                ("p90_ms", .number(frames.percentile(90) * 1e3)),
                ("layer_reused", .number(Double(cache.hits))),
                ("note", .text("a peer's stroke in progress over the unchanged drawing, layer cached")),
            ])

        // A new stroke committed (here or by a peer) lies above the rest: it is added to the
        // cached layer, the drawing is not rasterised again.
        var drawing = document
        var sample = SampleDrawing(seed: 0xF4A3E, peer: "zzzzzz", firstIndex: drawing.count + 1_000)
        var strokeFrames = DurationSample()
        for _ in 0..<max(repetitions, 20) {
            guard let group = sample.nextGroup() else { continue }
            drawing.insert(group)
            strokeFrames.add(
                BenchClock.measure { view.render(drawing, viewport: viewport, cache: cache) }.seconds)
        }
        add(
            "render.new_stroke_frame.block", strokeFrames.median * 1e3, "ms",
            [
                ("p90_ms", .number(strokeFrames.percentile(90) * 1e3)),
                ("layer_extended", .number(Double(cache.extensions))),
                ("note", .text("the first frame after a new stroke on top of the drawing, layer extended")),
            ])
    }

    /// In a fresh process, timed from its spawn (`process_start_s` is the exec, the dynamic
    /// loading and the runtime's start): open the replica, start the coordinator (which reads
    /// the drawing), and render the first 200x60 frame of its drawing. Staged, as the app opens
    /// a drawing: the coordinator decodes the groups the bounds cache puts on screen, the frame
    /// is drawn, then the rest is decoded in slices (the figure's `loaded_s`, and the longest
    /// slice, which is how long input could wait); `staged: false` decodes everything first, as
    /// without a cache.
    static func coldOpen(path: String, suffix: String, staged: Bool, report: FigureReport) throws {
        let start = BenchClock.now()
        // As the app's open does before the replica loads.
        HeapRelease.prefault(forStoreBytes: Replica.storedBytes(inDirectory: path))
        // From the parent's spawn, so the figure is from process start as its name says.
        let processStart = min(WorkerProcess.spawnedAt ?? start, start)
        let replica = try Replica(directory: path)
        let opened = BenchClock.now()
        let openedRSS = BenchClock.residentMegabytes() ?? 0
        let viewport = CanvasViewport(screenWidth: 200, screenHeight: 61)
        let editor = CanvasEditor(
            palette: [15], keyClock: StrokeKeyClock(peerShortID: "bench"), viewport: viewport,
            glyphMode: .block)
        let coordinator = DrawingSyncCoordinator(
            replica: replica, drawingID: drawingID, firstRegion: staged ? editor.reachOnScreen : nil)
        let observed = BenchClock.now()
        let observedRSS = BenchClock.residentMegabytes() ?? 0
        let cache = CanvasLayerCache()
        let grid = CanvasView(mode: .block).render(coordinator.drawing, viewport: viewport, cache: cache)
        let rendered = BenchClock.now()
        guard coordinator.strokeCount > 0, grid.cells.contains(where: { $0 != .blank }) else {
            throw BenchError.wrongResult("cold open: the first frame is empty")
        }
        // The rest, as the app's loop decodes it: slices of at most a few milliseconds, the
        // cells a pan can show next first, a frame after each (from the cached layer).
        var longestSlice = 0.0
        var frames = DurationSample()
        while coordinator.isLoading {
            let sliceStart = BenchClock.now()
            let sliceEnd = sliceStart + 4_000_000
            coordinator.loadSlice(step: 24, preferring: editor.reachOfNextPan) { BenchClock.now() < sliceEnd }
            longestSlice = max(longestSlice, Double(BenchClock.now() - sliceStart) / 1e9)
            frames.add(
                BenchClock.measure {
                    CanvasView(mode: .block).render(coordinator.drawing, viewport: viewport, cache: cache)
                }
                .seconds)
        }
        let loaded = BenchClock.now()
        let whole = CanvasView(mode: .block).render(coordinator.drawing, viewport: viewport)
        guard CanvasView(mode: .block).render(coordinator.drawing, viewport: viewport, cache: cache) == whole
        else {
            throw BenchError.wrongResult("cold open: the frame after loading differs from a fresh one")
        }
        func seconds(_ from: UInt64, _ to: UInt64) -> Double { Double(to - from) / 1e9 }
        let statistics = coordinator.openStatistics
        var details: [(key: String, value: Figure.Detail)] = [
            ("strokes", .number(Double(coordinator.strokeCount))),
            ("process_start_s", .number(seconds(processStart, start))),
            ("open_s", .number(seconds(start, opened))),
            ("coordinator_s", .number(seconds(opened, observed))),
            ("first_frame_s", .number(seconds(observed, rendered))),
            ("decoded_first", .number(Double(statistics.decodedFirst))),
        ]
        if staged {
            details += [
                ("cached_bounds", .number(Double(statistics.cachedBounds))),
                ("loaded_s", .number(seconds(processStart, loaded))),
                ("longest_slice_ms", .number(longestSlice * 1e3)),
                ("frame_while_loading_p90_ms", .number(frames.count > 0 ? frames.percentile(90) * 1e3 : 0)),
                (
                    "note",
                    .text(
                        "from the spawn of a fresh process, files in the page cache, bounds cache written by the last close"
                    )
                ),
            ]
        } else {
            details.append(
                (
                    "note",
                    .text(
                        "from the spawn of a fresh process, files in the page cache, everything decoded first"
                    )
                ))
        }
        let name = staged ? "drawing.cold_open" : "drawing.cold_open.whole"
        report.add(name + suffix, seconds(processStart, rendered), "s", details)
        let memory = MemoryReading()
        report.add(
            name + ".rss" + suffix, memory.resident, "MB",
            [
                ("after_replica_open_mb", .number(openedRSS)),
                ("after_coordinator_mb", .number(observedRSS)),
                ("anonymous_mb", .number(memory.anonymous)), ("heap_in_use_mb", .number(memory.heapInUse)),
                ("heap_free_kept_mb", .number(memory.heapFreeKept)), ("peak_mb", .number(memory.peak)),
            ])
    }
}

/// The process's memory at one moment, in MB: resident, its peak so far, and malloc's heap.
struct MemoryReading {
    let resident: Double
    /// The resident private memory (the heap), without the binary's and libraries' pages.
    let anonymous: Double
    let peak: Double
    let heapInUse: Double
    let heapFreeKept: Double

    init() {
        resident = BenchClock.residentMegabytes() ?? 0
        anonymous = BenchClock.anonymousResidentMegabytes() ?? 0
        peak = BenchClock.peakResidentMegabytes() ?? 0
        (heapInUse, heapFreeKept) = BenchClock.heapMegabytes() ?? (0, 0)
    }
}

import ReplicaCore
import StrokeKit

/// Taking in the replica's maps: `strokes.<key>` (the stroke as drawn) and `sweeps.<key>.<sweep
/// key>` (its sweeps). A group shows when its stroke as drawn is stored; sweeps stored under a key
/// with no stroke (sweeps that raced the stroke's removal) are kept but show nothing.
extension DrawingModel {
    /// One stroke key's entries as the replica holds them.
    struct StoredEntry: Equatable, Sendable {
        var base: DocumentValue?
        var sweeps: [String: DocumentValue] = [:]

        var isEmpty: Bool { base == nil && sweeps.isEmpty }

        /// The entries of a synchronized form: its value and its sweeps' values.
        init(_ encoded: EncodedGroup) {
            base = .base64(encoded.storedBytes)
            for (sweepKey, value) in encoded.sweepValues { sweeps[sweepKey.rawValue] = .string(value) }
        }

        init(base: DocumentValue? = nil, sweeps: [String: DocumentValue] = [:]) {
            self.base = base
            self.sweeps = sweeps
        }

        /// Whether these are exactly the entries of `encoded`.
        func isShown(by encoded: EncodedGroup?) -> Bool {
            guard let encoded, let base, base.base64Bytes == encoded.storedBytes,
                sweeps.count == encoded.sweepValues.count
            else { return false }
            return sweeps.allSatisfy { rawSweepKey, value in
                guard let text = value.stringValue, let sweepKey = SweepKey(rawValue: rawSweepKey) else {
                    return false
                }
                return encoded.sweepValues[sweepKey] == text
            }
        }
    }

    /// Entries of the replica's maps that changed: per raw key the value now, nil when gone.
    public struct StoredEntries: Sendable {
        /// `strokes.<key>`: the stroke as drawn.
        public var bases: [String: DocumentValue?] = [:]
        /// `sweeps.<key>` as a whole (a map of sweeps, or nil when gone).
        public var sweepMaps: [String: DocumentValue?] = [:]
        /// `sweeps.<key>.<sweep key>`, one sweep at a time; applied after `sweepMaps`.
        public var sweeps: [String: [String: DocumentValue?]] = [:]
        /// `bases` is the whole `strokes` map: known keys absent from it are gone.
        public var replacesAllBases = false
        /// `sweepMaps` is the whole `sweeps` map.
        public var replacesAllSweeps = false

        public init() {}

        /// The entries of whole maps (a document's `strokes` and `sweeps` fields).
        public init(strokes: [String: DocumentValue], sweeps: [String: DocumentValue] = [:]) {
            bases = strokes.mapValues { Optional($0) }
            sweepMaps = sweeps.mapValues { Optional($0) }
            replacesAllBases = true
            replacesAllSweeps = true
        }
    }

    /// Takes in a drawing document's fields as a whole.
    public mutating func update(fromDocument fields: [String: DocumentValue]?) -> StoreUpdate {
        update(
            StoredEntries(
                strokes: fields?["strokes"]?.objectValue ?? [:], sweeps: fields?["sweeps"]?.objectValue ?? [:]
            ))
    }

    /// Takes in the replica's `strokes` map as a whole (and, if given, its `sweeps` map): keys
    /// absent from it are removed.
    public mutating func update(
        fromStrokesMap map: [String: DocumentValue], sweeps: [String: DocumentValue] = [:]
    ) -> StoreUpdate {
        update(StoredEntries(strokes: map, sweeps: sweeps))
    }

    /// Takes in changed entries of the replica's maps. Values equal to what is known are not
    /// decoded again. An entry that cannot be read keeps showing the last good version of its
    /// group or sweep (if any) rather than dropping a stroke nobody can read, and is reported.
    ///
    /// Each key is taken in turn (its entries as known, then what changed), so a delivery of the
    /// whole drawing builds no map of every key's entries beside the model.
    public mutating func update(_ entries: StoredEntries) -> StoreUpdate {
        var update = StoreUpdate()
        var bases = entries.bases
        var sweepMaps = entries.sweepMaps
        if entries.replacesAllBases {
            for (key, _) in synced where bases[key.rawValue] == nil { bases[key.rawValue] = .some(nil) }
            for (rawKey, entry) in unmatched where entry.base != nil && bases[rawKey] == nil {
                bases[rawKey] = .some(nil)
            }
        }
        if entries.replacesAllSweeps {
            for (key, encoded) in synced where !encoded.sweepValues.isEmpty && sweepMaps[key.rawValue] == nil
            {
                sweepMaps[key.rawValue] = .some(nil)
            }
            for (rawKey, entry) in unmatched where !entry.sweeps.isEmpty && sweepMaps[rawKey] == nil {
                sweepMaps[rawKey] = .some(nil)
            }
        }
        for (rawKey, base) in bases {
            take(
                rawKey, base: base, sweepMap: sweepMaps[rawKey], sweeps: entries.sweeps[rawKey], into: &update
            )
        }
        for (rawKey, sweepMap) in sweepMaps where bases[rawKey] == nil {
            take(rawKey, base: nil, sweepMap: sweepMap, sweeps: entries.sweeps[rawKey], into: &update)
        }
        for (rawKey, sweeps) in entries.sweeps where bases[rawKey] == nil && sweepMaps[rawKey] == nil {
            take(rawKey, base: nil, sweepMap: nil, sweeps: sweeps, into: &update)
        }
        update.problems.sort { $0.description < $1.description }
        return update
    }

    /// Takes in what changed under one raw key: the stroke as drawn (`.some(nil)` when gone),
    /// the whole map of its sweeps, then single sweeps, in that order; nil where nothing did.
    private mutating func take(
        _ rawKey: String, base: DocumentValue??, sweepMap: DocumentValue??, sweeps: [String: DocumentValue?]?,
        into update: inout StoreUpdate
    ) {
        let key = StrokeKey(rawValue: rawKey)
        var entry = storedEntry(rawKey, parsed: key)
        if let base {
            readCount += 1
            entry.base = base
        }
        if let sweepMap {
            readCount += 1
            switch sweepMap {
            case nil: entry.sweeps = [:]
            case .object(let sweeps)?: entry.sweeps = sweeps
            case .some:
                update.problems.append(.sweepNotAString(key: rawKey, sweepKey: nil))
                entry.sweeps = [:]
            }
        }
        for (rawSweepKey, value) in sweeps ?? [:] {
            readCount += 1
            entry.sweeps[rawSweepKey] = value
        }
        rebuild(rawKey, key, from: entry, into: &update)
        // Kept apart only when the synchronized form does not say what the replica holds.
        unmatched[rawKey] = entry.isEmpty || entry.isShown(by: key.flatMap { synced[$0] }) ? nil : entry
    }

    /// The replica's entries under `rawKey` as last read: the synchronized form's value and sweep
    /// values, unless they differ from what the replica holds (`unmatched`).
    func storedEntry(_ rawKey: String) -> StoredEntry {
        storedEntry(rawKey, parsed: StrokeKey(rawValue: rawKey))
    }

    /// `storedEntry(_:)` with `rawKey` parsed already (nil when it is not a stroke key).
    private func storedEntry(_ rawKey: String, parsed key: StrokeKey?) -> StoredEntry {
        if let entry = unmatched[rawKey] { return entry }
        guard let key, let encoded = synced[key] else { return StoredEntry() }
        return StoredEntry(encoded)
    }

    /// Brings `synced` for one key up to date with its stored entries.
    private mutating func rebuild(
        _ rawKey: String, _ parsedKey: StrokeKey?, from entry: StoredEntry, into update: inout StoreUpdate
    ) {
        guard entry.base != nil else {
            if let key = parsedKey, let removed = synced.removeValue(forKey: key) {
                update.changed[key] = .some(nil)
                update.previous[key] = removed.group
            }
            return
        }
        let known = parsedKey.flatMap { synced[$0] }
        guard
            let encoded = Self.decodedForm(
                rawKey, parsedKey, from: entry, known: known, problems: &update.problems)
        else { return }
        if known?.group == encoded.group && known?.storedBytes == encoded.storedBytes {
            synced[encoded.key] = encoded
            return
        }
        synced[encoded.key] = encoded
        update.changed[encoded.key] = .some(encoded.group)
        if let known { update.previous[encoded.key] = known.group }
    }

    /// The synchronized form of one key's stored entries, decoding only what `known` (the key's
    /// form before, if any) does not hold already; nil, with the problem recorded, when the
    /// stroke as drawn is not there or cannot be read. A sweep that cannot be read keeps its last
    /// good version, if there was one.
    static func decodedForm(
        _ rawKey: String, _ parsedKey: StrokeKey?, from entry: StoredEntry, known: EncodedGroup?,
        problems: inout [StoredGroupProblem]
    ) -> EncodedGroup? {
        // The stored value is a string: as the bytes its base64 text stands for (as the replica
        // holds a canonical one), or a text to decode (which says what is wrong with it).
        let stored: Result<[UInt8], StoredGroupProblem>
        switch entry.base {
        case .base64(let bytes)?: stored = .success(bytes)
        case .string(let text)?:
            do throws(StrokeCodecError) {
                stored = .success(try Base64.decode(text))
            } catch {
                stored = .failure(.undecodable(key: rawKey, reason: error.message))
            }
        default:
            problems.append(.notAString(key: rawKey))
            return nil
        }
        var masks: [SweepKey: StrokeMask] = [:]
        var values: [SweepKey: String] = [:]
        for (rawSweepKey, value) in entry.sweeps {
            let sweepKey = SweepKey(rawValue: rawSweepKey)
            if let sweepText = value.stringValue, let sweepKey, known?.sweepValues[sweepKey] == sweepText,
                let mask = known?.group.sweeps[sweepKey]
            {
                masks[sweepKey] = mask
                values[sweepKey] = sweepText
                continue
            }
            do throws(StoredGroupProblem) {
                guard let sweepText = value.stringValue else {
                    throw StoredGroupProblem.sweepNotAString(key: rawKey, sweepKey: rawSweepKey)
                }
                let sweep = try EncodedGroup.sweep(
                    storedValue: sweepText, under: rawKey, sweepKey: rawSweepKey)
                masks[sweep.key] = sweep.mask
                values[sweep.key] = sweepText
            } catch {
                problems.append(error)
                // The last good version of this sweep, if there was one, stays.
                if let sweepKey, let mask = known?.group.sweeps[sweepKey],
                    let kept = known?.sweepValues[sweepKey]
                {
                    masks[sweepKey] = mask
                    values[sweepKey] = kept
                }
            }
        }
        do throws(StoredGroupProblem) {
            return try EncodedGroup(
                storedBytes: stored.get(), under: rawKey, sweeps: masks, sweepValues: values, known: known,
                parsedKey: parsedKey)
        } catch {
            problems.append(error)
            return nil
        }
    }
}

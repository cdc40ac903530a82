import ByteCoding
import StrokeKit

/// Where each stroke group of one drawing has ink, as this peer last knew it: per stroke key,
/// the conservative bounds of the stroke as drawn and the fingerprint of the stored value (the
/// codec's bytes, `EncodedGroup.storedBytes`) they were computed from. It lets an open decode
/// the groups under the viewport first (a stored value says nothing about its ink until it is
/// decoded).
///
/// It can never make the drawing wrong: an entry is used only for a stored value whose bytes have
/// exactly its fingerprint (a 128-bit digest of every one of them), and a key without such
/// an entry is decoded before the first frame. What it decides is only the order of decoding; the
/// drawing and the model always hold what the values decode to. Kept beside the replica and never
/// synced (see `DrawingBoundsCache+File`): each peer computes its own.
public struct DrawingBoundsCache: Equatable, Sendable {
    /// One stroke's bounds and the fingerprint of the stored value they belong to.
    public struct Entry: Equatable, Sendable {
        public var fingerprint: StrokeFingerprint
        public var bounds: CellRect
        /// In a cache read from its file, the entry's place in the file, which is in key order
        /// (z-order): a staged open takes the strokes that wait in this order (see
        /// `PendingEntries`). Zero in an entry made in memory; not part of what the entry says
        /// (`==` ignores it).
        public internal(set) var rank: Int32 = 0

        public init(fingerprint: StrokeFingerprint, bounds: CellRect) {
            self.fingerprint = fingerprint
            self.bounds = bounds
        }

        public static func == (lhs: Entry, rhs: Entry) -> Bool {
            lhs.fingerprint == rhs.fingerprint && lhs.bounds == rhs.bounds
        }
    }

    public let drawingID: String
    /// Per raw stroke key.
    public private(set) var entries: [String: Entry]

    public init(drawingID: String, entries: [String: Entry] = [:]) {
        self.drawingID = drawingID
        self.entries = entries
    }

    /// The bounds of the stroke stored as `bytes` under `rawKey`, when the cache holds them for
    /// exactly those bytes.
    public func bounds(of rawKey: String, storedBytes bytes: [UInt8]) -> CellRect? {
        entry(of: rawKey, storedBytes: bytes)?.bounds
    }

    /// The entry of the stroke stored as `bytes` under `rawKey`, when the cache holds one for
    /// exactly those bytes.
    public func entry(of rawKey: String, storedBytes bytes: [UInt8]) -> Entry? {
        guard let entry = entries[rawKey], entry.fingerprint == StrokeFingerprint(of: bytes) else {
            return nil
        }
        return entry
    }

    /// Records (or, with nil, forgets) one stroke's entry.
    public mutating func set(_ entry: Entry?, for rawKey: String) {
        entries[rawKey] = entry
    }

    /// The entry for a stored group: the fingerprint of its stored bytes and the bounds of its
    /// stroke as drawn, which hold those of every piece its sweeps leave (a mask only hides).
    public static func entry(for encoded: EncodedGroup) -> Entry? {
        var bounds: CellRect?
        for stroke in encoded.group.base {
            let piece = SpatialIndex.bounds(of: stroke)
            bounds = bounds.map { $0.union(piece) } ?? piece
        }
        return bounds.map { Entry(fingerprint: encoded.fingerprint, bounds: $0) }
    }
}

/// The cache's bytes: `DTBC`, a format version, the drawing id, the entries (key, fingerprint,
/// bounds) and, last, the fingerprint of everything before it, so a file cut short or changed in
/// any byte is refused as a whole rather than read in part.
extension DrawingBoundsCache {
    /// Bump when the bounds a stroke gets change, or what is fingerprinted, so an older cache is
    /// not trusted. Format 2: the fingerprint is of the stored bytes (format 1's was of their
    /// base64 text).
    static let formatVersion: UInt8 = 2
    static let magic = Array("DTBC".utf8)
    /// One entry takes at least a key byte, 16 fingerprint bytes and four one-byte numbers.
    private static let minimumEntryBytes = 21
    private static let maximumIDBytes = 4_096

    /// The file's bytes.
    public func encoded() -> [UInt8] {
        var writer = ByteWriter(reservingCapacity: 64 + entries.count * 56)
        writer.writeBytes(Self.magic)
        writer.writeByte(Self.formatVersion)
        writer.writeUTF8(drawingID, prefix: .varint)
        writer.writeVarint(UInt64(entries.count))
        for (key, entry) in entries.sorted(by: { $0.key < $1.key }) {
            writer.writeUTF8(key, prefix: .varint)
            writer.writeFixed(entry.fingerprint.high, .littleEndian)
            writer.writeFixed(entry.fingerprint.low, .littleEndian)
            writer.writeZigzag(Int64(entry.bounds.x))
            writer.writeZigzag(Int64(entry.bounds.y))
            writer.writeVarint(UInt64(entry.bounds.width))
            writer.writeVarint(UInt64(entry.bounds.height))
        }
        let digest = StrokeFingerprint(of: writer.bytes)
        writer.writeFixed(digest.high, .littleEndian)
        writer.writeFixed(digest.low, .littleEndian)
        return writer.bytes
    }

    /// Reads a cache written by `encoded()` for `drawingID`; anything else is refused.
    public init(decoding bytes: [UInt8], drawingID: String) throws(DrawingBoundsCacheError) {
        let table = try Self.table(decoding: bytes, drawingID: drawingID)
        var entries: [String: Entry] = [:]
        entries.reserveCapacity(table.count)
        for rank in 0..<table.count { entries[table.key(ofRank: rank)] = table.entry(ofRank: rank) }
        self.init(drawingID: drawingID, entries: entries)
    }

    /// Reads a cache written by `encoded()` for `drawingID` into the table a staged open looks
    /// strokes up in; anything else is refused.
    static func table(decoding bytes: [UInt8], drawingID: String) throws(DrawingBoundsCacheError)
        -> BoundsCacheTable
    {
        guard bytes.count >= Self.magic.count + 1 + 16 else { throw .truncated }
        let body = Array(bytes[..<(bytes.count - 16)])
        let digest = StrokeFingerprint(of: body)
        var trailer = ByteReader<DrawingBoundsCacheError>(bytes, offset: body.count)
        let high = try trailer.readFixed("digest", as: UInt64.self, .littleEndian)
        let low = try trailer.readFixed("digest", as: UInt64.self, .littleEndian)
        guard digest == StrokeFingerprint(high: high, low: low) else { throw .damaged }
        var reader = ByteReader<DrawingBoundsCacheError>(body)
        guard Array(try reader.readBytes("magic", count: Self.magic.count)) == Self.magic else {
            throw .notACache
        }
        let version = try reader.readByte("version")
        guard version == Self.formatVersion else { throw .otherVersion(version) }
        let id = try reader.readUTF8("drawing id", prefix: .varint, limit: Self.maximumIDBytes)
        guard id == drawingID else { throw .otherDrawing(id) }
        let count = try reader.readCount("entry count", prefix: .varint, minimumBytes: Self.minimumEntryBytes)
        var keyBytes: [UInt8] = []
        keyBytes.reserveCapacity(count * StrokeKey.maximumLength)
        var keyEnds: [Int32] = []
        keyEnds.reserveCapacity(count)
        var fingerprints: [StrokeFingerprint] = []
        fingerprints.reserveCapacity(count)
        var allBounds: [CellRect] = []
        allBounds.reserveCapacity(count)
        for _ in 0..<count {
            let start = reader.offset
            let key = try reader.readBytes("key", prefix: .varint, limit: StrokeKey.maximumLength)
            // Keys are ASCII; anything else must at least be UTF-8, as the text it was written from.
            if !key.allSatisfy({ $0 < 0x80 }), !Self.isUTF8(key) {
                throw .malformed(.invalidUTF8(field: "key", offset: start))
            }
            keyBytes += key
            keyEnds.append(Int32(keyBytes.count))
            let high = try reader.readFixed("fingerprint", as: UInt64.self, .littleEndian)
            let low = try reader.readFixed("fingerprint", as: UInt64.self, .littleEndian)
            let x = try reader.readZigzag("x")
            let y = try reader.readZigzag("y")
            let width = try reader.readVarint("width")
            let height = try reader.readVarint("height")
            guard let bounds = Self.rect(x: x, y: y, width: width, height: height) else { throw .damaged }
            fingerprints.append(StrokeFingerprint(high: high, low: low))
            allBounds.append(bounds)
        }
        guard reader.remaining == 0 else { throw .damaged }
        return BoundsCacheTable(
            keyBytes: keyBytes, keyEnds: keyEnds, fingerprints: fingerprints, bounds: allBounds)
    }

    /// Whether the bytes are UTF-8 (decoding repairs what is not, so the same bytes come back
    /// exactly when they are).
    private static func isUTF8(_ bytes: ArraySlice<UInt8>) -> Bool {
        String(decoding: bytes, as: UTF8.self).utf8.elementsEqual(bytes)
    }

    /// A rectangle within the coordinates a stroke can have (about ±2^20 cells, see
    /// `FixedPoint`), or nil.
    private static func rect(x: Int64, y: Int64, width: UInt64, height: UInt64) -> CellRect? {
        let limit: Int64 = 1 << 31
        guard abs(x) < limit, abs(y) < limit, width < UInt64(limit), height < UInt64(limit) else {
            return nil
        }
        return CellRect(x: Int(x), y: Int(y), width: Int(width), height: Int(height))
    }
}

/// Why a bounds cache was not used. None of these loses anything: the drawing is then decoded
/// whole before its first frame, and the cache written again when it closes.
public enum DrawingBoundsCacheError: Error, Equatable, Sendable, ByteCodingFailure {
    case truncated
    case damaged
    case notACache
    case otherVersion(UInt8)
    case otherDrawing(String)
    case unreadable(path: String, reason: String)
    case unwritable(path: String, reason: String)
    case malformed(ByteCodingError)

    public init(_ error: ByteCodingError) {
        self = .malformed(error)
    }
}

extension DrawingBoundsCacheError: CustomStringConvertible {
    public var description: String {
        switch self {
        case .truncated: "the bounds cache is cut short"
        case .damaged: "the bounds cache is damaged"
        case .notACache: "the file is not a bounds cache"
        case .otherVersion(let version):
            "the bounds cache is of format \(version), this build reads \(DrawingBoundsCache.formatVersion)"
        case .otherDrawing(let id): "the bounds cache belongs to drawing '\(id.prefix(40))'"
        case .unreadable(let path, let reason): "cannot read the bounds cache \(path): \(reason)"
        case .unwritable(let path, let reason): "cannot write the bounds cache \(path): \(reason)"
        case .malformed(let error): "the bounds cache is malformed: \(error)"
        }
    }
}

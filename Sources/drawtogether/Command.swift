/// What the user asked the executable to do, once the command line is parsed.
enum Command: Equatable, Sendable {
    /// The interactive canvas on one drawing (created if missing); nil when none was named: the
    /// store's last drawing, else `defaultDrawing`.
    case open(drawing: String?)
    /// The drawings in the replica.
    case list
    /// One drawing as text, ANSI art, SVG or JSON, to a file or (when `output` is nil) stdout.
    case export(drawing: String, format: ExportFormat, output: String?)
    /// One DQL statement against the replica; `argumentsJSON` is the unparsed `--args` object.
    case query(statement: String, argumentsJSON: String?)
    /// A headless peer; with `once`, exit as soon as every peer is in sync.
    case sync(once: Bool)
    /// The relay server, listening on the common `--listen` address (required for serve).
    case serve
    /// A shell's completion script, or the drawing ids those scripts complete.
    case completions(CompletionRequest)
    /// Checks the terminal, the store, discovery, the settings and the network, one line each.
    case doctor
    /// The manual page drawtogether(1), in roff, made from the help texts.
    case manPage
    /// Prints a new random token to share with the peers.
    case token
    /// The usage text, for the whole program (`nil`) or one subcommand.
    case help(topic: Subcommand?)
    case version

    /// The name `drawtogether` shows in usage for the default drawing.
    static let defaultDrawing = "drawing-1"
}

/// A subcommand by name, as typed after `drawtogether`.
enum Subcommand: String, CaseIterable, Equatable, Sendable {
    case open, list, export, query, sync, serve
    case completions, doctor, manpage, token
}

/// The backgrounds `drawtogether export --theme` draws an SVG on: default ink is white on the
/// dark one (the default) and black on the light one.
enum ExportTheme: String, CaseIterable, Equatable, Sendable {
    case dark, light
}

/// The glyphs `drawtogether export --glyphs` draws text and ANSI with, as the screen's `g` does.
enum ExportGlyphs: String, CaseIterable, Equatable, Sendable {
    case block, braille
}

/// The formats `drawtogether export --format` writes.
enum ExportFormat: String, CaseIterable, Equatable, Sendable {
    case text, ansi, svg, json
}

/// What `drawtogether completions` prints: a script for a shell, or the drawing ids.
enum CompletionRequest: String, CaseIterable, Equatable, Sendable {
    case bash, zsh, fish
    /// The ids of the drawings in the replica, one a line: what the scripts complete after
    /// `open` and `export`.
    case drawings
}

import ReplicaCore
import ReplicaCoreTestSupport
import TestSupport
import Testing

@Suite struct DQLParserTests {
    private func parameter(_ name: String, _ line: Int, _ column: Int) -> DQLOperand {
        .parameter(name: name, position: DQLPosition(line: line, column: column))
    }

    // MARK: Every statement form

    @Test func selectAllWithoutFilter() throws {
        #expect(
            try DQLParser.parse("SELECT * FROM drawings")
                == .select(DQLSelect(projection: .allFields, collection: "drawings", filter: nil)))
    }

    @Test func selectFieldsAndPathsWithFilter() throws {
        let statement = try DQLParser.parse(
            "select name, strokes.`a.b`, x.y_2 from drawings where _id = :id;")
        #expect(
            statement
                == .select(
                    DQLSelect(
                        projection: .fields([
                            DQLPath(["name"]), DQLPath(["strokes", "a.b"]), DQLPath(["x", "y_2"]),
                        ]),
                        collection: "drawings",
                        filter: DQLFilter(id: parameter("id", 1, 61)))))
    }

    @Test func insertWithEveryConflictPolicy() throws {
        let cases: [(String, DQLConflictPolicy)] = [
            ("", .fail), (" ON ID CONFLICT DO FAIL", .fail), (" on id conflict do update", .update),
            (" ON ID CONFLICT DO UPDATE_LOCAL_DIFF", .updateLocalDiff),
        ]
        for (suffix, policy) in cases {
            let statement = try DQLParser.parse("INSERT INTO drawings DOCUMENTS (:doc)" + suffix)
            #expect(
                statement
                    == .insert(
                        DQLInsert(
                            collection: "drawings", documents: [parameter("doc", 1, 33)], onConflict: policy))
            )
        }
    }

    @Test func insertSeveralDocuments() throws {
        let statement = try DQLParser.parse("INSERT INTO c DOCUMENTS (:a), ( :b )")
        #expect(
            statement
                == .insert(
                    DQLInsert(
                        collection: "c", documents: [parameter("a", 1, 26), parameter("b", 1, 33)],
                        onConflict: .fail)))
    }

    @Test func updateSetsParametersAndLiterals() throws {
        let text =
            "UPDATE c SET f = :v, a.b = 'it''s', n = -1.5e2, t = TRUE, u = false, z = NULL, i = 42 WHERE _id = 'x'"
        #expect(
            try DQLParser.parse(text)
                == .update(
                    DQLUpdate(
                        collection: "c",
                        actions: [
                            .set(DQLPath(["f"]), parameter("v", 1, 18)),
                            .set(DQLPath(["a", "b"]), .string("it's")),
                            .set(DQLPath(["n"]), .number(-150)),
                            .set(DQLPath(["t"]), .bool(true)),
                            .set(DQLPath(["u"]), .bool(false)),
                            .set(DQLPath(["z"]), .null),
                            .set(DQLPath(["i"]), .number(42)),
                        ],
                        filter: DQLFilter(id: .string("x")))))
    }

    @Test func updateUnsetsBackquotedStrokeKeys() throws {
        let text = "UPDATE drawings UNSET strokes.`2026-03-25T16:20:14.127Z~3fa2c1`, name WHERE _id = :id"
        #expect(
            try DQLParser.parse(text)
                == .update(
                    DQLUpdate(
                        collection: "drawings",
                        actions: [
                            .unset(DQLPath(["strokes", "2026-03-25T16:20:14.127Z~3fa2c1"])),
                            .unset(DQLPath(["name"])),
                        ],
                        filter: DQLFilter(id: parameter("id", 1, 83)))))
    }

    @Test func deleteById() throws {
        #expect(
            try DQLParser.parse("DELETE FROM drawings WHERE _id = :id")
                == .delete(DQLDelete(collection: "drawings", filter: DQLFilter(id: parameter("id", 1, 34)))))
    }

    @Test func commentsNewlinesAndBackquotedKeywordsAreAccepted() throws {
        let text = """
            -- fetch one drawing
            SELECT `from`, `we``ird`.`select`.id -- trailing comment
              FROM `SELECT`
             WHERE `_id` = :id ;
            """
        #expect(
            try DQLParser.parse(text)
                == .select(
                    DQLSelect(
                        projection: .fields([DQLPath(["from"]), DQLPath(["we`ird", "select", "id"])]),
                        collection: "SELECT",
                        filter: DQLFilter(id: parameter("id", 4, 16)))))
    }

    @Test func numbersInEveryForm() throws {
        let forms: [(String, Double)] = [
            ("0", 0), ("7", 7), ("-3", -3), ("2.25", 2.25), ("1e3", 1000),
            ("-2.5E-2", -0.025), ("6e+1", 60),
        ]
        for (text, value) in forms {
            let statement = try DQLParser.parse("UPDATE c SET n = \(text) WHERE _id = 1")
            #expect(
                statement
                    == .update(
                        DQLUpdate(
                            collection: "c", actions: [.set(DQLPath(["n"]), .number(value))],
                            filter: DQLFilter(id: .number(1)))))
        }
    }

    // MARK: Errors carry the position of the bad token

    @Test(arguments: [
        ("SELECT * FORM c", 1, 10, "expected FROM, found 'FORM'"),
        ("SELECT *\n    FORM c", 2, 5, "expected FROM, found 'FORM'"),
        ("", 1, 1, "expected SELECT, INSERT, UPDATE or DELETE, found end of input"),
        ("  -- only a comment\n", 2, 1, "found end of input"),
        ("SELEC * FROM c", 1, 1, "found 'SELEC'"),
        ("SELECT * FROM c WHERE _id = 'open", 1, 29, "expected a closing ', found end of input"),
        ("SELECT `name FROM c", 1, 8, "expected a closing `"),
        ("SELECT * FROM c # x", 1, 17, "found '#'"),
        ("SELECT * FROM c WHERE _id = :id extra", 1, 33, "expected end of statement, found 'extra'"),
        ("SELECT * FROM c;;", 1, 17, "expected end of statement, found ';'"),
        ("SELECT a b FROM c", 1, 10, "expected ',' or FROM, found 'b'"),
        ("SELECT FROM c", 1, 8, "expected '*' or a field name, found 'FROM'"),
        ("SELECT a. FROM c", 1, 11, "expected a field name after '.', found 'FROM'"),
        ("SELECT a.where FROM c", 1, 10, "found 'where'"),
        ("SELECT * FROM c WHERE name = :n", 1, 23, "expected _id"),
        ("SELECT * FROM c WHERE _id = :", 1, 29, "parameter name"),
        ("INSERT INTO c DOCUMENTS :doc", 1, 25, "expected '(', found parameter ':doc'"),
        ("INSERT INTO c DOCUMENTS ('x')", 1, 26, "expected a document parameter"),
        (
            "INSERT INTO c DOCUMENTS (:d) ON ID CONFLICT DO NOTHING", 1, 48,
            "FAIL, UPDATE or UPDATE_LOCAL_DIFF"
        ),
        ("UPDATE c SET a = 1", 1, 19, "expected ',' or WHERE, found end of input"),
        ("UPDATE c SET a = 1 UNSET b WHERE _id = 1", 1, 20, "expected ',' or WHERE, found 'UNSET'"),
        ("UPDATE c WHERE _id = 1", 1, 10, "expected SET or UNSET"),
        ("UPDATE c SET a 1 WHERE _id = 1", 1, 16, "expected '=', found number '1'"),
        ("UPDATE c SET a = :1 WHERE _id = 1", 1, 18, "parameter name"),
        ("UPDATE c SET a = b WHERE _id = 1", 1, 18, "a parameter such as :value"),
        ("UPDATE c SET a = 1e WHERE _id = 1", 1, 18, "found '1e'"),
        ("UPDATE c SET a = 1e999 WHERE _id = 1", 1, 18, "finite number"),
        ("UPDATE c UNSET `` WHERE _id = 1", 1, 16, "a name between the backquotes"),
        ("DELETE FROM c", 1, 14, "expected WHERE, found end of input"),
        ("DELETE FROM select WHERE _id = 1", 1, 13, "expected a collection name, found 'select'"),
        ("DELETE FROM c WHERE _id = - 1", 1, 27, "found '-'"),
        ("SELECT * FROM c WHERE _id = 'a\nb' garbage", 2, 4, "found 'garbage'"),
        ("SELECT ü FROM c", 1, 8, "found 'ü'"),
        ("SELECT * FROM `ü🙂` x", 1, 20, "found 'x'"),
    ])
    func malformedStatementReportsPosition(text: String, line: Int, column: Int, message: String) {
        do {
            let statement = try DQLParser.parse(text)
            Issue.record("accepted \(text) as \(statement)")
        } catch {
            #expect(error.position == DQLPosition(line: line, column: column), "\(text)")
            #expect(error.description.hasPrefix("line \(line), column \(column): "), "\(error)")
            #expect(error.description.contains(message), "\(error)")
        }
    }

    @Test func errorDescriptionNamesExpectedAndFound() {
        #expect(
            throws: DQLSyntaxError.unexpectedToken(
                expected: "FROM", found: "'FORM'", position: DQLPosition(line: 2, column: 5))
        ) {
            try DQLParser.parse("SELECT *\n    FORM c")
        }
        let error = DQLSyntaxError.unexpectedToken(
            expected: "FROM", found: "'FORM'", position: DQLPosition(line: 2, column: 5))
        #expect(error.description == "line 2, column 5: expected FROM, found 'FORM'")
    }

    // MARK: Robustness

    @Test func randomInputNeverCrashes() {
        let alphabet = [
            "SELECT", "INSERT", "UPDATE", "DELETE", "FROM", "WHERE", "INTO", "DOCUMENTS", "SET",
            "UNSET", "ON", "ID", "CONFLICT", "DO", "FAIL", "UPDATE_LOCAL_DIFF", "TRUE", "NULL",
            "_id", "c", "a", "*", ",", ".", "=", "(", ")", ";", ":id", ":", "'s'", "'", "`k`", "`",
            "''", "``", "-1.5e3", "1e", "-", "--", "\n", " ", "42", "é", "🙂",
        ]
        var generator = SplitMix64(seed: 0xD01_5EED)
        var parsed = 0
        for _ in 0..<10_000 {
            var text = ""
            for _ in 0..<Int.random(in: 0...14, using: &generator) {
                if Int.random(in: 0..<4, using: &generator) == 0 {
                    let scalar = Unicode.Scalar(UInt32.random(in: 0...0x7F, using: &generator)) ?? " "
                    text.unicodeScalars.append(scalar)
                } else {
                    text += alphabet.randomElement(using: &generator) ?? ""
                    text += Bool.random(using: &generator) ? " " : ""
                }
            }
            do {
                _ = try DQLParser.parse(text)
                parsed += 1
            } catch {
                // Every error must point inside the text (or just past its end).
                #expect(error.position.line >= 1 && error.position.column >= 1)
                #expect(error.position.line <= text.filter(\.isNewline).count + 1)
            }
        }
        #expect(parsed < 10_000)
    }

    @Test func hundredThousandComponentPathParsesInBoundedStack() throws {
        let count = 100_000
        let text = "SELECT " + Array(repeating: "a", count: count).joined(separator: ".") + " FROM c"
        guard case .select(let select) = try DQLParser.parse(text),
            case .fields(let fields) = select.projection
        else {
            Issue.record("not a projection")
            return
        }
        #expect(fields.first?.components.count == count)
    }

    @Test func longListsAndLongTokensParse() throws {
        let fields = (0..<50_000).map { "f\($0)" }.joined(separator: ", ")
        #expect(throws: Never.self) { try DQLParser.parse("SELECT \(fields) FROM c") }
        let long = String(repeating: "x", count: 200_000)
        let statement = try DQLParser.parse("UPDATE c SET v = '\(long)' WHERE _id = :id")
        guard case .update(let update) = statement else {
            Issue.record("not an update")
            return
        }
        #expect(update.actions == [.set(DQLPath(["v"]), .string(long))])
        // A long bad token is shortened in the message.
        do {
            _ = try DQLParser.parse("SELECT * FROM c \(long)")
            Issue.record("trailing token accepted")
        } catch {
            #expect(error.description.count < 120)
        }
    }
}

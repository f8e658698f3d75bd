import ArgumentParser
import FlowCommandLine
import FlowCore
import FlowLint
import FlowLoading
import FlowSchema

/// `--schema S.json DOC...`: validates documents against any JSON Schema.
enum SchemaMode {
  static func run(schemaPath: String, documents: [String]) throws -> RunOutcome {
    let schema: JSONSchema
    do {
      let bytes = try FlowFiles.readBytes(path: schemaPath)
      let root = try FlowLoader.parse(bytes: bytes, file: schemaPath)
      schema = try JSONSchema(root, file: schemaPath)
    } catch let error as FlowIOError {
      printError(error.description)
      throw ExitStatus.unusable.exitCode
    } catch let error as LoadError {
      printError("\(error.description)\nflowlint: error: the schema '\(schemaPath)' cannot be read")
      throw ExitStatus.unusable.exitCode
    } catch let error as SchemaError {
      printError(error.description)
      throw ExitStatus.unusable.exitCode
    }
    let files: [String]
    do {
      files = try FlowFiles.paths(in: documents)
    } catch {
      printError(error.description)
      throw ExitStatus.unusable.exitCode
    }
    var reports: [FileReport] = []
    var ioErrors: [FlowIOError] = []
    for file in files {
      do {
        let bytes = try FlowFiles.readBytes(path: file)
        let text = SourceText(bytes: bytes)
        do {
          let node = try FlowLoader.parse(bytes: bytes, file: file)
          reports.append(FileReport(file: file, text: text, diagnostics: schema.validate(node, file: file)))
        } catch {
          reports.append(FileReport(file: file, text: text, diagnostics: [error.diagnostic]))
        }
      } catch {
        if let tooLarge = error.tooLarge {
          reports.append(FileReport(file: file, text: SourceText(""), diagnostics: [tooLarge.diagnostic]))
        } else {
          ioErrors.append(error)
        }
      }
    }
    return RunOutcome(reports: reports, ioErrors: ioErrors)
  }
}

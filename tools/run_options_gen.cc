// Writes what tucana-run and its docs take from runtime/src/run_options.def:
//   run_options_gen script IN OUT     tucana-run from its configured template:
//                                     each line "# run-options: WHAT" becomes
//                                     the help text of a section, or the
//                                     defaults, cases, checks or exports of
//                                     the options that reach the runtime
//   run_options_gen markdown IN OUT   docs/runtime.md with its options table
//   run_options_gen man IN OUT        docs/man/tucana-run.1 with its entries
//                                     (both between "run-options: begin" and
//                                     "run-options: end" lines, kept)
//   run_options_gen options           every spelling of every option
// IN and OUT may be the same file.
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

struct Option {
  const char* name;
  const char* section;
  const char* option;
  const char* aliases;
  const char* arg;
  const char* env;
  const char* kind;
  long min;
  const char* choices;
  const char* hint;
  const char* dflt;
  const char* help;
  const char* doc;
  const char* see;
};

const Option kOptions[] = {
#define TUCANA_RUN_OPTION(name, section, option, aliases, arg, env, kind, min, choices, hint, dflt, help, doc, see, store) \
  {#name, section, option, aliases, arg, env, #kind, min, choices, hint, dflt, help, doc, see},
#include "run_options.def"
#undef TUCANA_RUN_OPTION
};

bool is(const char* a, const char* b) { return std::strcmp(a, b) == 0; }

std::vector<std::string> split(const std::string& text, const std::string& separator) {
  std::vector<std::string> parts;
  if (text.empty()) return parts;
  std::size_t start = 0;
  for (std::size_t at; (at = text.find(separator, start)) != std::string::npos; start = at + separator.size())
    parts.push_back(text.substr(start, at - start));
  parts.push_back(text.substr(start));
  return parts;
}

// The option and the aliases a user sees. An alias that is the option with
// one dash less (mpirun's spelling, -tag-output) is accepted, not shown.
std::vector<std::string> spellings(const Option& o, bool shown_only) {
  std::vector<std::string> all{o.option};
  for (const std::string& alias : split(o.aliases, " | "))
    if (!shown_only || "-" + alias != o.option) all.push_back(alias);
  return all;
}

std::string without_backticks(std::string text) {
  for (std::size_t at; (at = text.find('`')) != std::string::npos;) text.erase(at, 1);
  return text;
}

// " (env VAR; default D)", or less, in the help's plain text.
std::string env_note(const Option& o, bool flag_value) {
  std::string note;
  if (*o.env) note = std::string("env ") + o.env + (flag_value && is(o.kind, "flag") ? "=1" : "");
  if (*o.dflt) note += (note.empty() ? "" : "; ") + std::string("default ") + o.dflt;
  return note.empty() ? note : " (" + note + ")";
}

// --- tucana-run -----------------------------------------------------------------

// Words of `text` in lines of at most 79 columns, the first after `head`,
// the others indented to column 25.
std::string help_entry(const std::string& head, const std::string& text) {
  const std::size_t indent = 25, width = 79;
  std::string out = "  " + head, line_text;
  if (out.size() + 2 > indent) {
    out += "\n";
    out += std::string(indent, ' ');
  } else {
    out += std::string(indent - out.size(), ' ');
  }
  std::size_t column = indent;
  bool first = true;
  for (const std::string& word : split(text, " ")) {
    if (!first && column + 1 + word.size() > width) {
      out += "\n" + std::string(indent, ' ');
      column = indent;
      first = true;
    }
    out += (first ? "" : " ") + word;
    column += (first ? 0 : 1) + word.size();
    first = false;
  }
  // Inside the script's here-document: nothing may expand.
  std::string quoted;
  for (char c : out) {
    if (c == '$' || c == '`' || c == '\\') quoted += '\\';
    quoted += c;
  }
  return quoted + "\n";
}

std::string help_of(const char* section) {
  std::string out;
  for (const Option& o : kOptions) {
    if (!is(o.section, section)) continue;
    std::string head;
    for (const std::string& s : spellings(o, true)) head += (head.empty() ? "" : ", ") + s + (*o.arg ? " " : "") + o.arg;
    out += help_entry(head, without_backticks(o.help + env_note(o, true)));
  }
  return out;
}

// The options that reach the runtime: tucana-run parses, checks and exports
// them from the table; the launcher's own are written in tucana-run.in.
bool generated_in_script(const Option& o) { return *o.option && !is(o.kind, "launcher"); }

std::string defaults() {
  std::string out;
  for (const Option& o : kOptions) {
    if (!generated_in_script(o)) continue;
    // A flag and a directory are not taken from the environment: the
    // runtime reads those variables itself when tucana-run does not set them.
    if (is(o.kind, "flag") || is(o.kind, "directory"))
      out += std::string(o.name) + "=\"\"\n";
    else
      out += std::string(o.name) + "=${" + o.env + ":-}\n";
  }
  return out;
}

std::string cases() {
  std::string out;
  for (const Option& o : kOptions) {
    if (!generated_in_script(o)) continue;
    std::string pattern;
    for (const std::string& s : spellings(o, false)) pattern += (pattern.empty() ? "" : " | ") + s;
    if (is(o.kind, "flag"))
      out += "    " + pattern + ") " + o.name + "=1; shift ;;\n";
    else
      out += "    " + pattern + ") need \"$@\"; " + o.name + "=$2; shift 2 ;;\n";
  }
  return out;
}

// 'a', 'b' or 'c'
std::string listed(const std::vector<std::string>& words, bool quoted) {
  std::string out;
  for (std::size_t i = 0; i < words.size(); ++i) {
    out += i == 0 ? "" : i + 1 == words.size() ? " or " : ", ";
    out += quoted ? "'" + words[i] + "'" : words[i];
  }
  return out;
}

std::string checks() {
  std::string out;
  for (const Option& o : kOptions) {
    if (!generated_in_script(o)) continue;
    const std::string v = std::string("$") + o.name, opt = o.option, got = " (got '" + v + "')\"";
    const std::string if_set = std::string("if [ -n \"") + v + "\" ]";
    if (is(o.kind, "count")) {
      out += if_set + "; then\n  is_count \"" + v + "\" || die \"" + opt + " must be a positive integer" + got + "\nfi\n";
    } else if (is(o.kind, "size")) {
      // Where there is a minimum, tucana-run's examples start with a plain byte count.
      std::vector<std::string> examples = split(o.hint, ", ");
      if (o.min > 0) examples.insert(examples.begin(), "65536");
      out += if_set + "; then\n  bytes=$(size_bytes \"" + v + "\") || die \"" + opt + " must be a size such as " +
             listed(examples, false) + got + "\n";
      if (o.min > 0)
        out += "  [ \"$bytes\" -ge " + std::to_string(o.min) + " ] || die \"" + opt + " " + v + " is too small: " +
               o.choices + " needs at least " + std::to_string(o.min >> 10) + "k\"\n";
      out += "fi\n";
    } else if (is(o.kind, "seconds")) {
      out += if_set + " && ! [[ \"" + v + "\" =~ ^[0-9]+(\\.[0-9]+)?$ ]]; then\n  die \"" + opt +
             " must be a number of seconds" + got + "\nfi\n";
    } else if (is(o.kind, "seed")) {
      out += if_set + " && ! [[ \"" + v + "\" =~ ^[0-9]+$ ]]; then\n  die \"" + opt +
             " must be a non-negative integer" + got + "\nfi\n";
    } else if (is(o.kind, "choice")) {
      std::vector<std::string> names = split(o.choices, "|");
      std::string pattern = "\"\"";
      for (const std::string& n : names) pattern += " | " + n;
      out += "case \"" + v + "\" in\n  " + pattern + ") ;;\n  *) die \"" + opt + " must be " + listed(names, true) +
             got + " ;;\nesac\n";
    }
  }
  return out;
}

std::string exports() {
  std::string out;
  for (const Option& o : kOptions) {
    if (!generated_in_script(o)) continue;
    const std::string v = std::string("$") + o.name, opt = o.option, env = o.env;
    if (is(o.kind, "flag")) {
      out += "[ \"" + v + "\" = 1 ] && vars+=(" + env + "=1)\n";
    } else if (is(o.kind, "directory")) {
      out += "if [ -n \"" + v + "\" ]; then\n  mkdir -p \"" + v + "\" || die \"" + opt + ": cannot create '" + v +
             "'\"\n  vars+=(" + env + "=\"$(cd \"" + v + "\" && pwd)\")\nfi\n";
    } else if (is(o.kind, "file")) {
      // The file's directory absolute: the processes may start elsewhere.
      out += "if [ -n \"" + v + "\" ]; then\n  file_dir=$(cd \"$(dirname \"" + v + "\")\" 2>/dev/null && pwd) || die \"" +
             opt + ": directory of '" + v + "' does not exist\"\n  " + o.name + "=\"$file_dir/$(basename \"" + v +
             "\")\"\n  vars+=(" + env + "=\"" + v + "\")\nfi\n";
    } else {
      out += "[ -n \"" + v + "\" ] && vars+=(" + env + "=\"" + v + "\")\n";
    }
  }
  return out;
}

std::string script_part(const std::string& what) {
  if (what.rfind("help ", 0) == 0) return help_of(what.substr(5).c_str());
  if (what == "defaults") return defaults();
  if (what == "cases") return cases();
  if (what == "checks") return checks();
  if (what == "exports") return exports();
  throw std::runtime_error("unknown marker '# run-options: " + what + "'");
}

// --- docs -------------------------------------------------------------------------

std::string markdown_table() {
  std::string out = "| option | environment | default | meaning |\n|---|---|---|---|\n";
  for (const Option& o : kOptions) {
    std::string spelled;
    if (*o.option)
      for (const std::string& s : spellings(o, true))
        spelled += (spelled.empty() ? "`" : ", `") + s + (*o.arg ? " " : "") + o.arg + "`";
    std::string env = *o.env ? std::string("`") + o.env + (is(o.kind, "flag") ? "=1" : "") + "`" : "";
    std::string meaning = std::string(o.help) + (*o.see ? std::string("; see ") + o.see : "");
    out += "|";
    for (const std::string& cell : {spelled, env, std::string(o.dflt), meaning}) out += cell.empty() ? " |" : " " + cell + " |";
    out += "\n";
  }
  return out;
}

// Roff: `code` bold, dashes in options and code unbreakable minus signs.
std::string roff(const std::string& text) {
  std::string out;
  bool code = false;
  for (char c : text) {
    if (c == '`') {
      out += code ? "\\fR" : "\\fB";
      code = !code;
    } else if (c == '\\') {
      out += "\\e";
    } else if (c == '-' && code) {
      out += "\\-";
    } else {
      out += c;
    }
  }
  if (!out.empty() && (out[0] == '.' || out[0] == '\'')) out = "\\&" + out;
  return out;
}

std::string man_entries(const std::string& section) {
  std::string out;
  for (const Option& o : kOptions) {
    if (section != o.section) continue;
    std::string head;
    for (const std::string& s : spellings(o, true)) {
      head += (head.empty() ? "" : ", ") + roff("`" + s + "`");
      if (*o.arg) head += " \\fI" + roff(o.arg) + "\\fR";
    }
    std::string doc = o.doc, note = env_note(o, true);
    if (!note.empty() && doc.back() == '.') doc = doc.substr(0, doc.size() - 1) + note + ".";
    out += ".TP\n" + head + "\n" + roff(doc) + "\n";
  }
  return out;
}

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

void write_all(const std::string& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
  if (!out) throw std::runtime_error("cannot write " + path);
}

// Each line that contains `begin` is followed by what `make` gives for the
// word after it, up to the next line that contains `end`.
template <typename Make>
std::string splice(const std::string& text, const std::string& begin, const std::string& end, Make make) {
  std::string out;
  bool skipping = false;
  int spliced = 0;
  for (const std::string& line : split(text, "\n")) {
    if (skipping && line.find(end) == std::string::npos) continue;
    skipping = false;
    out += line + "\n";
    std::size_t at = line.find(begin);
    if (at != std::string::npos) {
      std::string what = line.substr(at + begin.size());
      what = what.substr(0, what.find_first_of(" \t"));
      out += make(what);
      skipping = true;
      ++spliced;
    }
  }
  if (skipping) throw std::runtime_error("no '" + end + "' after the last '" + begin + "'");
  if (spliced == 0) throw std::runtime_error("no '" + begin + "' line");
  out.pop_back();  // split gave one more line than the text's newlines
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string mode = argc > 1 ? argv[1] : "";
    if (mode == "options" && argc == 2) {
      for (const Option& o : kOptions)
        for (const std::string& s : spellings(o, false))
          if (!s.empty()) std::cout << s << "\n";
      return 0;
    }
    if (argc != 4) throw std::runtime_error("usage: run_options_gen script|markdown|man IN OUT, or options");
    const std::string text = read_all(argv[2]);
    std::string out;
    if (mode == "script") {
      const std::string marker = "# run-options: ";
      for (const std::string& line : split(text, "\n")) {
        std::size_t at = line.find(marker);
        out += at == std::string::npos ? line + "\n" : script_part(line.substr(at + marker.size()));
      }
      out.pop_back();
    } else if (mode == "markdown") {
      out = splice(text, "<!-- run-options: begin", "<!-- run-options: end",
                   [](const std::string&) { return markdown_table(); });
    } else if (mode == "man") {
      out = splice(text, ".\\\" run-options: begin ", ".\\\" run-options: end", man_entries);
    } else {
      throw std::runtime_error("unknown mode '" + mode + "'");
    }
    write_all(argv[3], out);
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "run_options_gen: %s\n", e.what());
    return 1;
  }
}

using System.Text;
using DivCon.Harness.Factored;
using DivCon.Reporting.Plotting;

namespace DivCon.Cli.Commands;

/// <summary>
/// Writes <c>factored.json</c>, <c>factored.csv</c> and, when asked, <c>factored-{program}.png</c> with
/// <c>factored-{program}.plot.json</c> (the figure model, for redrawing) — all or nothing: every file goes to a
/// hidden temporary name first and is renamed into place only once all are written.
/// </summary>
internal static class FactoredFiles
{
    public static string PlotBaseName(string program) =>
        "factored-" + string.Concat(program.Select(c => char.IsAsciiLetterOrDigit(c) || c is '-' or '_' ? c : '_'));

    public static IReadOnlyList<string> Write(FactoredResult result, string folder, bool plots)
    {
        ArgumentNullException.ThrowIfNull(result);
        Directory.CreateDirectory(folder);
        var utf8 = new UTF8Encoding(encoderShouldEmitUTF8Identifier: false);
        var contents = new List<(string Name, Action<Stream> Write)>
        {
            ("factored.json", s => FactoredJsonWriter.Write(result, s)),
            ("factored.csv", s =>
            {
                using var w = new StreamWriter(s, utf8, leaveOpen: true);
                FactoredTextReport.WriteCsv(result, w);
            }),
        };
        if (plots)
        {
            foreach (FactoredProgramResult program in result.Programs)
            {
                LinePlot plot = FactoredPlot.Build(program, result.Size);
                string name = PlotBaseName(program.Program);
                contents.Add(($"{name}.png", s => s.Write(plot.RenderPng())));
                contents.Add(($"{name}.plot.json", s => s.Write(utf8.GetBytes(plot.ToJson()))));
            }
        }

        var temporary = new List<(string Temp, string Final)>();
        try
        {
            foreach (var (name, write) in contents)
            {
                string final = Path.Combine(folder, name);
                string temp = Path.Combine(folder, $".{name}.{Environment.ProcessId}.tmp");
                temporary.Add((temp, final));
                using var stream = new FileStream(temp, FileMode.Create, FileAccess.Write, FileShare.None);
                write(stream);
            }

            foreach (var (temp, final) in temporary)
            {
                File.Move(temp, final, overwrite: true);
            }
        }
        finally
        {
            foreach (var (temp, _) in temporary)
            {
                if (File.Exists(temp))
                {
                    File.Delete(temp);
                }
            }
        }

        return temporary.Select(t => t.Final).ToArray();
    }
}

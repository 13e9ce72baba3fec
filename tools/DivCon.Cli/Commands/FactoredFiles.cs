using System.Text;
using System.Text.Json;
using DivCon.Harness.Factored;
using DivCon.Harness.Plots;
using DivCon.Reporting.Plotting;

namespace DivCon.Cli.Commands;

/// <summary>
/// Writes <c>factored.json</c>, <c>factored.csv</c> and, when asked, <c>factored-{program}.png</c> with
/// <c>factored-{program}.plot.json</c> (the figure model, for redrawing) — all or nothing: every file goes to a
/// hidden temporary name first and is renamed into place only once all are written.
/// </summary>
internal static class FactoredFiles
{
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
            // The figures are drawn from the JSON written beside them, by the same code as `divcon plot --from`,
            // so what is plotted is exactly what the file says and a redraw equals the original.
            using var json = new MemoryStream();
            FactoredJsonWriter.Write(result, json);
            using JsonDocument document = JsonDocument.Parse(json.ToArray());
            foreach (NamedFigure figure in FactoredPlots.FromJson(document.RootElement))
            {
                Figure plot = figure.Figure;
                contents.Add(($"{figure.Name}.png", s => s.Write(plot.RenderPng())));
                contents.Add(($"{figure.Name}.plot.json", s => s.Write(utf8.GetBytes(plot.ToJson()))));
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

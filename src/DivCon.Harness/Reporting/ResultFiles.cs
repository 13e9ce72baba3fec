using System.Text;
using DivCon.Harness.Cyclic;

namespace DivCon.Harness.Reporting;

/// <summary>
/// Writes a result's files (<c>{name}.json</c>, <c>{name}.csv</c>, <c>report.md</c>) into a folder, all or nothing:
/// each is written to a hidden temporary file first and only renamed into place once all three are written, so a
/// failure never leaves a file that looks like a result.
/// </summary>
public static class ResultFiles
{
    /// <summary>The file names written for <paramref name="baseName"/> (<c>cyclic</c> or <c>symmetric</c>).</summary>
    public static IReadOnlyList<string> Names(string baseName) => [$"{baseName}.json", $"{baseName}.csv", "report.md"];

    /// <summary>
    /// Checks that <paramref name="folder"/> can hold results: creates it if missing and writes and deletes a probe file.
    /// Returns null when it can, otherwise one sentence saying why not.
    /// </summary>
    public static string? CheckWritable(string folder)
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(folder);
        try
        {
            if (File.Exists(folder))
            {
                return $"'{folder}' is a file, not a folder.";
            }

            Directory.CreateDirectory(folder);
            string probe = Path.Combine(folder, $".divcon-probe-{Environment.ProcessId}-{Guid.NewGuid():N}");
            File.WriteAllText(probe, "probe");
            File.Delete(probe);
            return null;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or NotSupportedException or ArgumentException)
        {
            return $"cannot write to '{folder}': {e.Message}";
        }
    }

    /// <summary>Writes the three files; returns their paths.</summary>
    public static IReadOnlyList<string> Write(CyclicResult result, string folder, string baseName)
    {
        ArgumentNullException.ThrowIfNull(result);
        Directory.CreateDirectory(folder);
        var utf8 = new UTF8Encoding(encoderShouldEmitUTF8Identifier: false);
        var contents = new (string Name, Action<Stream> Write)[]
        {
            ($"{baseName}.json", s => CyclicJsonWriter.Write(result, s)),
            ($"{baseName}.csv", s =>
            {
                using var w = new StreamWriter(s, utf8, leaveOpen: true);
                CyclicCsvWriter.Write(result, w);
            }),
            ("report.md", s =>
            {
                using var w = new StreamWriter(s, utf8, leaveOpen: true);
                w.Write(CyclicTextReport.Markdown(result));
            }),
        };

        var temporary = new List<(string Temp, string Final)>();
        try
        {
            foreach (var (name, write) in contents)
            {
                string final = Path.Combine(folder, name);
                string temp = Path.Combine(folder, $".{name}.{Environment.ProcessId}.tmp");
                temporary.Add((temp, final));
                using (var stream = new FileStream(temp, FileMode.Create, FileAccess.Write, FileShare.None))
                {
                    write(stream);
                }
            }

            foreach (var (temp, final) in temporary)
            {
                File.Move(temp, final, overwrite: true);
            }

            return temporary.Select(t => t.Final).ToArray();
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
    }
}

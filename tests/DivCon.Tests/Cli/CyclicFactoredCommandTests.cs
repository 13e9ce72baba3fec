using System.Text.Json;
using DivCon.Cli;

namespace DivCon.Tests.Cli;

/// <summary>
/// End to end (issue 7): a short real cyclic run writes each program's multiprogram <c>factored</c> decomposition for
/// a partitioned scheme, consistent with its own recorded numbers, and <c>null</c> with a reason for tpl-default.
/// </summary>
public sealed class CyclicFactoredCommandTests : IDisposable
{
    private readonly string _root = Path.Combine(Path.GetTempPath(), "divcon-cli-tests", Guid.NewGuid().ToString("N"));

    public void Dispose()
    {
        if (Directory.Exists(_root))
        {
            Directory.Delete(_root, recursive: true);
        }
    }

    [Fact]
    public async Task ShortRun_WritesFactoredForDynamicPartitioned_AndAReasonForTplDefault()
    {
        string outDir = Path.Combine(_root, "factored");
        // Run again (at most 3 times) only when a stalled process left a program without a run (StalledPhaseRetry).
        var (code, _, stderr) = await StalledPhaseRetry.RunAsync(outDir, async () =>
        {
            var output = new StringWriter();
            var error = new StringWriter();
            int exit = await CliApp.RunAsync(["cyclic", "--programs", "quicksort,mergesort", "--schemes", "dynamic-partitioned,tpl-default",
                "--duration", "3s", "--sp-runs", "2", "--warmup", "0", "--max-warmup", "2", "--size", "small", "--out", outDir], output, error).WaitAsync(TimeSpan.FromMinutes(3));
            return (exit, output.ToString(), error.ToString());
        });

        Assert.True(code == 0, stderr);
        using JsonDocument doc = JsonDocument.Parse(await File.ReadAllTextAsync(Path.Combine(outDir, "cyclic.json")));
        JsonElement[] schemes = doc.RootElement.GetProperty("schemes").EnumerateArray().ToArray();

        JsonElement tpl = schemes.Single(s => s.GetProperty("scheme").GetString() == "tpl-default");
        foreach (JsonElement p in tpl.GetProperty("programs").EnumerateArray())
        {
            Assert.Equal(JsonValueKind.Null, p.GetProperty("factored").GetProperty("point").ValueKind);
            Assert.Contains("no per-program core-time", p.GetProperty("factored").GetProperty("reason").GetString(), StringComparison.Ordinal);
        }

        JsonElement dynamic = schemes.Single(s => s.GetProperty("scheme").GetString() == "dynamic-partitioned");
        foreach (JsonElement p in dynamic.GetProperty("programs").EnumerateArray())
        {
            string name = p.GetProperty("program").GetString()!;
            JsonElement f = p.GetProperty("factored").GetProperty("point");
            JsonElement a = p.GetProperty("factored").GetProperty("accounting");
            Assert.True(f.ValueKind == JsonValueKind.Object, $"{name}: {p.GetProperty("factored").GetProperty("reason")}");
            Assert.Equal(JsonValueKind.Null, p.GetProperty("factored").GetProperty("reason").ValueKind);
            double interval = a.GetProperty("intervalSeconds").GetDouble();
            double core = a.GetProperty("coreSecondsHeld").GetDouble();
            double idle = a.GetProperty("idleSeconds").GetDouble();
            double coresHeld = f.GetProperty("p").GetDouble();
            double tmp = f.GetProperty("tp").GetDouble();
            double ip = f.GetProperty("ip").GetDouble();
            double fp = f.GetProperty("fp").GetDouble();
            double ts = a.GetProperty("sequentialSeconds").GetDouble();
            double t1 = a.GetProperty("oneWorkerSeconds").GetDouble();

            // The window covers the 3 s phase (from registration to the first stopped run).
            Assert.True(interval >= 2.9, $"{name}: window {interval}");
            Assert.True(core > 0 && idle >= 0 && idle <= core, $"{name}: core {core}, idle {idle}");
            Assert.True(ts > 0 && t1 > 0, $"{name}: T_s {ts}, T_1 {t1}");
            Assert.Equal(core / interval, coresHeld, 9);
            Assert.Equal(p.GetProperty("cmp").GetProperty("mean").GetDouble(), tmp, 9);
            Assert.Equal(idle / interval * tmp, ip, 9);
            // P·T_P = T_1 + I_P + F_P on the written numbers, P the mean cores held.
            Assert.Equal(coresHeld * tmp, t1 + ip + fp, 9);
            JsonElement speedups = f.GetProperty("speedups");
            foreach (string curve in new[] { "linear", "maximal", "idleSpecific", "inflationSpecific", "actual", "elision" })
            {
                Assert.True(speedups.TryGetProperty(curve, out _), curve);
            }

            Assert.Equal(coresHeld, speedups.GetProperty("linear").GetDouble(), 9);
            Assert.Equal(ts / tmp, speedups.GetProperty("actual").GetDouble(), 9);
        }

        string report = await File.ReadAllTextAsync(Path.Combine(outDir, "report.md"));
        Assert.Contains("## Factored speedups in the multiprogram phase", report, StringComparison.Ordinal);
        Assert.Contains("| tpl-default | quicksort | n/a: ", report, StringComparison.Ordinal);
    }
}

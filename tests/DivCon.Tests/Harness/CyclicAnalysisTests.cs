using DivCon.Harness.Cyclic;

namespace DivCon.Tests.Harness;

public sealed class CyclicAnalysisTests
{
    private static PhaseResult Phase(params (int Program, double Start, double End, bool Recorded)[] runs) =>
        new(["a", "b"], 10, runs.Select(r => new RunRecord(r.Program, r.Start, r.End, r.Recorded)).ToArray());

    private static RepetitionRuns Repetition(IReadOnlyList<IReadOnlyList<double>> csp, Dictionary<string, PhaseResult> phases) =>
        new(csp, phases.ToDictionary(kv => kv.Key, kv => kv.Value.ProgramRuns()));

    [Fact]
    public void OneRepetition_HandComputed()
    {
        // SP: a {1, 1}, b {2, 2}. Scheme x: a runs {2, 4} (mean 3) + one discarded; b runs {5} → NTT 3 and 2.5.
        var rep = Repetition(
            [[1.0, 1.0], [2.0, 2.0]],
            new Dictionary<string, PhaseResult>
            {
                ["x"] = Phase((0, 0, 2, true), (1, 0, 5, true), (0, 2, 6, true), (0, 6, 10, false), (1, 5, 10, false)),
            });

        var (schemes, comparisons) = CyclicAnalysis.Analyze(["a", "b"], [("x", "scheme x")], [rep]);

        SchemeResult x = Assert.Single(schemes);
        Assert.Equal(3.0, x.Programs[0].Ntt!.Mean, 12);
        Assert.Equal(2.5, x.Programs[1].Ntt!.Mean, 12);
        Assert.Equal(2, x.Programs[0].Runs);
        Assert.Equal(1, x.Programs[0].Discarded);
        Assert.Equal(2.75, x.Antt!.Mean, 12);
        Assert.Equal(3.0, x.Mntt!.Mean, 12);
        Assert.Equal((1 / 3.0) + 0.4, x.Stp!.Mean, 12);
        Assert.Null(x.Antt.Ci99);
        Assert.Empty(comparisons);
        Assert.Empty(x.Warnings);
    }

    [Fact]
    public void Repetitions_GiveSchemeIntervals_AndWelchComparisons()
    {
        // Scheme y is slower than x in every repetition by a clear margin; ANTT per repetition differs slightly.
        var reps = new List<RepetitionRuns>();
        double[] jitter = [0.0, 0.1, -0.1];
        foreach (double j in jitter)
        {
            reps.Add(Repetition(
                [[1.0], [2.0]],
                new Dictionary<string, PhaseResult>
                {
                    ["x"] = Phase((0, 0, 2 + j, true), (1, 0, 4, true)),
                    ["y"] = Phase((0, 0, 4 + j, true), (1, 0, 8, true)),
                }));
        }

        var (schemes, comparisons) = CyclicAnalysis.Analyze(["a", "b"], [("x", "x"), ("y", "y")], reps);

        // ANTT_x per repetition: ((2+j)/1 + 4/2)/2 = 2 + j/2 → {2, 2.05, 1.95}: mean 2, sd 0.05.
        Assert.Equal(2.0, schemes[0].Antt!.Mean, 12);
        Assert.Equal(0.05, schemes[0].Antt!.StandardDeviation!.Value, 12);
        Assert.Equal(3, schemes[0].Antt!.Count);
        Assert.NotNull(schemes[0].Antt!.Ci99);
        Assert.Equal(3, schemes[0].Repetitions.Count);

        SchemeComparison antt = Assert.Single(comparisons, c => c.Metric == "antt");
        Assert.Equal("x", antt.SchemeA);
        Assert.Equal("y", antt.SchemeB);
        Assert.True(antt.Test.Significant);
        Assert.Single(comparisons, c => c.Metric == "stp");
    }

    [Fact]
    public void ProgramWithoutRecordedRuns_HasNoNtt_AndAWarning()
    {
        var rep = Repetition(
            [[1.0], [2.0]],
            new Dictionary<string, PhaseResult> { ["x"] = Phase((0, 0, 2, true), (1, 0, 10, false)) });

        var (schemes, _) = CyclicAnalysis.Analyze(["a", "b"], [("x", "x")], [rep]);

        Assert.Null(schemes[0].Programs[1].Ntt);
        Assert.Null(schemes[0].Antt);
        Assert.Contains(schemes[0].Warnings, w => w.Contains("'b'", StringComparison.Ordinal));
    }
}

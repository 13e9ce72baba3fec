using DivCon.Metrics.Statistics;

namespace DivCon.Tests.Locality;

public sealed class TwoFactorAnovaTests
{
    // 2 × 2 × 2, computed by hand:
    //   cell means 2 5 / 2 8, μ = 4.25, α = ∓0.75, β = ∓2.25, γ = ±0.75 (checkerboard);
    //   SSY = 200, SS0 = 8·4.25² = 144.5, SST = 55.5, SSA = 2·2·(2·0.75²) = 4.5, SSB = 2·2·(2·2.25²) = 40.5,
    //   SSAB = 2·4·0.75² = 4.5, SSE = 2 + 2 + 0 + 2 = 6 (df 4, MSE 1.5).
    private static readonly double[][][] s_hand =
    [
        [[1, 3], [4, 6]],
        [[2, 2], [7, 9]],
    ];

    private static AnovaSource Line(TwoFactorAnovaResult r, string source) => r.Table.Single(s => s.Source == source);

    [Fact]
    public void HandComputedDataSet_EffectsAndTable()
    {
        TwoFactorAnovaResult r = TwoFactorAnova.Analyze(["r0", "r1"], ["c0", "c1"], s_hand);

        Assert.Equal(4.25, r.GrandMean.Effect, 12);
        Assert.Equal(-0.75, r.RowEffects[0].Effect, 12);
        Assert.Equal(0.75, r.RowEffects[1].Effect, 12);
        Assert.Equal(-2.25, r.ColumnEffects[0].Effect, 12);
        Assert.Equal(2.25, r.ColumnEffects[1].Effect, 12);
        Assert.Equal(0.75, r.Interactions[0][0], 12);
        Assert.Equal(-0.75, r.Interactions[0][1], 12);
        Assert.Equal(-0.75, r.Interactions[1][0], 12);
        Assert.Equal(0.75, r.Interactions[1][1], 12);

        Assert.Equal(200, Line(r, "SSY").SumOfSquares, 10);
        Assert.Equal(144.5, Line(r, "SS0").SumOfSquares, 10);
        Assert.Equal(55.5, Line(r, "SST").SumOfSquares, 10);
        Assert.Equal(4.5, Line(r, "SSA").SumOfSquares, 10);
        Assert.Equal(40.5, Line(r, "SSB").SumOfSquares, 10);
        Assert.Equal(4.5, Line(r, "SSAB").SumOfSquares, 10);
        Assert.Equal(6, Line(r, "SSE").SumOfSquares, 10);
        Assert.Equal(4, Line(r, "SSE").DegreesOfFreedom);
        Assert.Equal(1.5, Line(r, "SSE").MeanSquare!.Value, 12);
        Assert.Equal(3, Line(r, "SSA").F!.Value, 10);
        Assert.Equal(27, Line(r, "SSB").F!.Value, 10);
        Assert.Equal(100 * 40.5 / 55.5, Line(r, "SSB").PercentOfVariation!.Value, 10);

        // F(1, 4) = t² with 4 df, whose tail has a closed form: P(|T| ≥ t) = 1 − t(t² + 6)/(t² + 4)^{3/2}.
        static double TailF1And4(double f)
        {
            double t = Math.Sqrt(f);
            return 1 - t * (t * t + 6) / Math.Pow(t * t + 4, 1.5);
        }

        Assert.Equal(TailF1And4(3), Line(r, "SSA").P!.Value, 8);
        Assert.Equal(TailF1And4(27), Line(r, "SSB").P!.Value, 8);
    }

    [Fact]
    public void HandComputedDataSet_NinetyPercentIntervals_AndContrast()
    {
        TwoFactorAnovaResult r = TwoFactorAnova.Analyze(["r0", "r1"], ["c0", "c1"], s_hand, confidence: 0.90);

        // t(0.95; 4) = 2.131847 (tables); s_e = √1.5; s_α = s_e √(1/8); contrast s = s_e √(2/(a r)) = s_e √(1/2).
        const double t = 2.1318467813;
        Assert.Equal(t, r.TQuantile, 6);
        double sAlpha = Math.Sqrt(1.5 / 8);
        Assert.Equal(sAlpha, r.RowEffects[0].StandardDeviation, 12);
        Assert.Equal(-0.75 - t * sAlpha, r.RowEffects[0].Lower, 6);
        Assert.Equal(-0.75 + t * sAlpha, r.RowEffects[0].Upper, 6);
        Assert.False(r.RowEffects[0].IsSignificant);

        EffectInterval contrast = r.ColumnContrast(0, 1);
        double sContrast = Math.Sqrt(1.5 / 2);
        Assert.Equal(-4.5, contrast.Effect, 12);
        Assert.Equal(-4.5 - t * sContrast, contrast.Lower, 6);
        Assert.Equal(-4.5 + t * sContrast, contrast.Upper, 6);
        Assert.True(contrast.IsSignificant);
        Assert.Equal("c0 − c1", contrast.Name);
    }

    [Fact]
    public void Seed002_Table2_EffectsFromItsCellMeans_AndTable3SumsOfSquares()
    {
        // Seed 002 Table 2: cell means of 5 runs, rows = benchmarks, columns = runtimes (Locality, Regular).
        double[][] means =
        [
            [3.4467864, 3.4353168], // Matmul
            [0.1106102, 0.4690926], // Mattranspose
            [0.4172522, 0.5539346], // Heat
            [1.159463, 1.0309776],  // Cilksort
        ];

        // Replications with exactly these means: mean + {−2, −1, 0, 1, 2}·δ, so SSE = 8 cells · 10δ² and every
        // effect and effect sum of squares depends on the means only.
        const double delta = 0.01;
        double[][][] y = means.Select(row => row.Select(m => new[] { -2, -1, 0, 1, 2 }.Select(k => m + k * delta).ToArray()).ToArray()).ToArray();

        TwoFactorAnovaResult r = TwoFactorAnova.Analyze(["Matmul", "Mattranspose", "Heat", "Cilksort"], ["Locality", "Regular"], y);

        Assert.Equal(1.327929175, r.GrandMean.Effect, 1e-8);
        Assert.Equal(2.113122425, r.RowEffects[0].Effect, 1e-8);
        Assert.Equal(-1.038077775, r.RowEffects[1].Effect, 1e-8);
        Assert.Equal(-0.842335775, r.RowEffects[2].Effect, 1e-8);
        Assert.Equal(-0.232708875, r.RowEffects[3].Effect, 1e-8);
        Assert.Equal(-0.044401225, r.ColumnEffects[0].Effect, 1e-8);
        Assert.Equal(0.044401225, r.ColumnEffects[1].Effect, 1e-8);

        // Seed 002 Table 3 (its factor A is the runtime, B the benchmark; here rows are benchmarks, so they swap).
        Assert.Equal(70.53583575, Line(r, "SS0").SumOfSquares, 1e-6);
        Assert.Equal(63.06574828, Line(r, "SSA").SumOfSquares, 1e-6);
        Assert.Equal(0.078858751, Line(r, "SSB").SumOfSquares, 1e-7);
        Assert.Equal(0.330720647, Line(r, "SSAB").SumOfSquares, 1e-7);
        Assert.Equal(8 * 10 * delta * delta, Line(r, "SSE").SumOfSquares, 10);
        Assert.Equal(32, Line(r, "SSE").DegreesOfFreedom); // ab(r − 1) = 8·4 (the seed prints 30 and effect dfs 2, 3, 6: misprints for 1, 3, 3)
        Assert.Equal(-0.0888024, r.ColumnContrast(0, 1).Effect, 1e-6); // Table 5's centre: (−0.104752999 − 0.072851901)/2
    }

    [Fact]
    public void BadInput_IsRejectedWithAMessage()
    {
        Assert.Throws<ArgumentException>(() => TwoFactorAnova.Analyze(["a"], ["x", "y"], [[[1, 2], [3, 4]]]));
        Assert.Throws<ArgumentException>(() => TwoFactorAnova.Analyze(["a", "b"], ["x", "y"], [[[1], [3]], [[1], [3]]]));
        Assert.Throws<ArgumentException>(() => TwoFactorAnova.Analyze(["a", "b"], ["x", "y"], [[[1, 2], [3, 4]], [[1, 2], [3]]]));
        Assert.Throws<ArgumentException>(() => TwoFactorAnova.Analyze(["a", "b"], ["x", "y"], [[[1, 2], [3, 4]], [[1, 2]]]));
        Assert.Throws<ArgumentException>(() => TwoFactorAnova.Analyze(["a", "b"], ["x", "y"], [[[1, double.NaN], [3, 4]], [[1, 2], [3, 4]]]));
        var ex = Assert.Throws<ArgumentException>(() => TwoFactorAnova.Analyze(["a", "b"], ["x", "y"], s_hand, confidence: 1.5));
        Assert.Contains("(0, 1)", ex.Message);
        TwoFactorAnovaResult r = TwoFactorAnova.Analyze(["a", "b"], ["x", "y"], s_hand);
        Assert.Throws<ArgumentOutOfRangeException>(() => r.ColumnContrast(0, 0));
        Assert.Throws<ArgumentOutOfRangeException>(() => r.ColumnContrast(0, 2));
    }
}

using MathNet.Numerics.Distributions;

namespace DivCon.Metrics.Statistics;

/// <summary>
/// Two-factor full-factorial design with r replications, additive model (Jain, <i>The Art of Computer Systems
/// Performance Analysis</i>, ch. 22; seed 002 §4.2): y_ijk = μ + α_i + β_j + γ_ij + e_ijk, rows i = 1..a (seed 002:
/// benchmarks), columns j = 1..b (seed 002: runtimes), replications k = 1..r. A pure function of the observations.
/// </summary>
public static class TwoFactorAnova
{
    /// <summary>
    /// Estimates the effects and the ANOVA table of <paramref name="observations"/>[i][j][k] (row i, column j,
    /// replication k), with intervals at <paramref name="confidence"/> (seed 002 uses 90 %).
    /// </summary>
    /// <exception cref="ArgumentException">
    /// Fewer than two rows or columns, a ragged array, fewer than two replications or unequal replications, a
    /// non-finite observation, level names that do not match the array, or a confidence outside (0, 1).
    /// </exception>
    public static TwoFactorAnovaResult Analyze(
        IReadOnlyList<string> rowLevels, IReadOnlyList<string> columnLevels, double[][][] observations, double confidence = 0.90)
    {
        ArgumentNullException.ThrowIfNull(rowLevels);
        ArgumentNullException.ThrowIfNull(columnLevels);
        ArgumentNullException.ThrowIfNull(observations);
        if (!(confidence > 0 && confidence < 1))
        {
            throw new ArgumentException($"confidence must be in (0, 1); got {confidence}.", nameof(confidence));
        }

        int a = observations.Length;
        if (a < 2 || rowLevels.Count != a)
        {
            throw new ArgumentException($"need at least 2 rows and one name per row; got {a} rows and {rowLevels.Count} names.", nameof(observations));
        }

        int b = observations[0]?.Length ?? 0;
        if (b < 2 || columnLevels.Count != b)
        {
            throw new ArgumentException($"need at least 2 columns and one name per column; got {b} columns and {columnLevels.Count} names.", nameof(observations));
        }

        int r = observations[0][0]?.Length ?? 0;
        if (r < 2)
        {
            throw new ArgumentException($"need at least 2 replications per cell (the error has ab(r − 1) degrees of freedom); got {r}.", nameof(observations));
        }

        for (int i = 0; i < a; i++)
        {
            if (observations[i] is null || observations[i].Length != b)
            {
                throw new ArgumentException($"row {i} ('{rowLevels[i]}') has {observations[i]?.Length ?? 0} columns; every row needs {b}.", nameof(observations));
            }

            for (int j = 0; j < b; j++)
            {
                double[] cell = observations[i][j];
                if (cell is null || cell.Length != r)
                {
                    throw new ArgumentException(
                        $"cell ('{rowLevels[i]}', '{columnLevels[j]}') has {cell?.Length ?? 0} replications; every cell needs {r} (equal replications).", nameof(observations));
                }

                if (cell.Any(v => !double.IsFinite(v)))
                {
                    throw new ArgumentException($"cell ('{rowLevels[i]}', '{columnLevels[j]}') holds a non-finite observation.", nameof(observations));
                }
            }
        }

        var cellMeans = new double[a][];
        double ssy = 0;
        double sse = 0;
        for (int i = 0; i < a; i++)
        {
            cellMeans[i] = new double[b];
            for (int j = 0; j < b; j++)
            {
                double[] cell = observations[i][j];
                double mean = cell.Average();
                cellMeans[i][j] = mean;
                foreach (double y in cell)
                {
                    ssy += y * y;
                    sse += (y - mean) * (y - mean);
                }
            }
        }

        double mu = cellMeans.Sum(row => row.Sum()) / (a * b);
        double[] alpha = Enumerable.Range(0, a).Select(i => cellMeans[i].Average() - mu).ToArray();
        double[] beta = Enumerable.Range(0, b).Select(j => Enumerable.Range(0, a).Average(i => cellMeans[i][j]) - mu).ToArray();
        var gamma = new double[a][];
        for (int i = 0; i < a; i++)
        {
            gamma[i] = Enumerable.Range(0, b).Select(j => cellMeans[i][j] - mu - alpha[i] - beta[j]).ToArray();
        }

        double ss0 = a * b * r * mu * mu;
        double ssa = b * r * alpha.Sum(x => x * x);
        double ssb = a * r * beta.Sum(x => x * x);
        double ssab = r * gamma.Sum(row => row.Sum(x => x * x));
        double sst = ssy - ss0;
        int dfa = a - 1, dfb = b - 1, dfab = (a - 1) * (b - 1), dfe = a * b * (r - 1), n = a * b * r;
        double mse = sse / dfe;

        var table = new[]
        {
            new AnovaSource("SSY", ssy, null, n, null, null, null),
            new AnovaSource("SS0", ss0, null, 1, null, null, null),
            new AnovaSource("SST", sst, AnovaSource.PercentOf(sst, sst), n - 1, null, null, null),
            AnovaSource.Effect("SSA", ssa, dfa, mse, dfe, sst),
            AnovaSource.Effect("SSB", ssb, dfb, mse, dfe, sst),
            AnovaSource.Effect("SSAB", ssab, dfab, mse, dfe, sst),
            new AnovaSource("SSE", sse, AnovaSource.PercentOf(sse, sst), dfe, mse, null, null),
        };

        // Standard deviations of the estimates (Jain, Table 22.5): s_μ = s_e/√(abr), s_αi = s_e √((a−1)/(abr)),
        // s_βj = s_e √((b−1)/(abr)), s_γij = s_e √((a−1)(b−1)/(abr)); t with ab(r−1) degrees of freedom.
        double se = Math.Sqrt(mse);
        double t = StudentT.InvCDF(0, 1, dfe, 1 - (1 - confidence) / 2);
        EffectInterval Interval(string name, double effect, double sd) => new(name, effect, sd, effect - t * sd, effect + t * sd);

        return new TwoFactorAnovaResult(rowLevels.ToArray(), columnLevels.ToArray(), r, confidence, cellMeans,
            Interval("μ", mu, se / Math.Sqrt(n)),
            alpha.Select((x, i) => Interval(rowLevels[i], x, se * Math.Sqrt((double)(a - 1) / n))).ToArray(),
            beta.Select((x, j) => Interval(columnLevels[j], x, se * Math.Sqrt((double)(b - 1) / n))).ToArray(),
            gamma, table, se, t);
    }
}

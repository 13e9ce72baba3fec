namespace DivCon.Tests.Harness;

/// <summary>
/// A deterministic clock for harness protocol tests: time moves only when everything is waiting. <see cref="Run{T}"/>
/// drives an async body on the calling thread under a single-threaded SynchronizationContext; whenever no
/// continuation is queued and the body has not finished, the clock jumps to the earliest pending timer and fires it.
/// So a synthetic program that awaits <c>Task.Delay(d, clock)</c> takes exactly d of virtual time, and a test needs
/// no real timing at all. Nothing to run and no timer pending while the body is unfinished is a deadlock and throws.
/// </summary>
internal sealed class VirtualTime : TimeProvider
{
    private static readonly DateTimeOffset s_epoch = new(2026, 1, 1, 0, 0, 0, TimeSpan.Zero);
    private readonly object _lock = new();
    private readonly List<Timer> _timers = [];
    private long _now;
    private long _sequence;

    public override long TimestampFrequency => TimeSpan.TicksPerSecond;

    public override long GetTimestamp()
    {
        lock (_lock)
        {
            return _now;
        }
    }

    public override DateTimeOffset GetUtcNow() => s_epoch.AddTicks(GetTimestamp());

    public double NowSeconds => (double)GetTimestamp() / TimeSpan.TicksPerSecond;

    public override ITimer CreateTimer(TimerCallback callback, object? state, TimeSpan dueTime, TimeSpan period)
    {
        var timer = new Timer(this, callback, state);
        timer.Change(dueTime, period);
        return timer;
    }

    /// <summary>Moves time forward by <paramref name="by"/> at once (synchronous work, such as a sequential baseline run).</summary>
    public void Advance(TimeSpan by)
    {
        lock (_lock)
        {
            _now += by.Ticks;
        }
    }

    public T Run<T>(Func<Task<T>> body, int maxSteps = 100_000)
    {
        var context = new Pump();
        SynchronizationContext? previous = SynchronizationContext.Current;
        SynchronizationContext.SetSynchronizationContext(context);
        try
        {
            Task<T> task = body();
            long callbacks = 0;
            for (int step = 0; step < maxSteps; step++)
            {
                while (context.TryTake(out var work))
                {
                    // A body that keeps posting without time moving is a livelock: fail instead of eating memory.
                    if (++callbacks > 100L * maxSteps)
                    {
                        throw new InvalidOperationException($"Virtual-time livelock at t = {NowSeconds} s: {callbacks} callbacks without the clock moving enough.");
                    }

                    work.Callback(work.State);
                }

                if (task.IsCompleted)
                {
                    return task.GetAwaiter().GetResult();
                }

                if (!TryFireNext())
                {
                    throw new InvalidOperationException($"Virtual-time deadlock at t = {NowSeconds} s: nothing to run and no timer pending.");
                }
            }

            throw new InvalidOperationException($"Virtual-time body did not finish within {maxSteps} steps.");
        }
        finally
        {
            SynchronizationContext.SetSynchronizationContext(previous);
        }
    }

    private bool TryFireNext()
    {
        Timer? next;
        lock (_lock)
        {
            next = _timers.Where(t => t.Due != long.MaxValue).OrderBy(t => t.Due).ThenBy(t => t.Sequence).FirstOrDefault();
            if (next is null)
            {
                return false;
            }

            _now = Math.Max(_now, next.Due);
            if (next.Period > 0)
            {
                next.Due = _now + next.Period;
            }
            else
            {
                _timers.Remove(next);
            }
        }

        next.Fire();
        return true;
    }

    private sealed class Timer(VirtualTime owner, TimerCallback callback, object? state) : ITimer
    {
        public long Due { get; set; } = long.MaxValue;

        public long Period { get; private set; }

        public long Sequence { get; private set; }

        public bool Change(TimeSpan dueTime, TimeSpan period)
        {
            lock (owner._lock)
            {
                owner._timers.Remove(this);
                Due = dueTime == Timeout.InfiniteTimeSpan ? long.MaxValue : owner._now + dueTime.Ticks;
                Period = period == Timeout.InfiniteTimeSpan ? 0 : period.Ticks;
                Sequence = owner._sequence++;
                owner._timers.Add(this);
            }

            return true;
        }

        public void Fire() => callback(state);

        public void Dispose()
        {
            lock (owner._lock)
            {
                owner._timers.Remove(this);
            }
        }

        public ValueTask DisposeAsync()
        {
            Dispose();
            return ValueTask.CompletedTask;
        }
    }

    private sealed class Pump : SynchronizationContext
    {
        private readonly Queue<(SendOrPostCallback Callback, object? State)> _queue = new();

        public override void Post(SendOrPostCallback d, object? state)
        {
            lock (_queue)
            {
                _queue.Enqueue((d, state));
            }
        }

        public override void Send(SendOrPostCallback d, object? state) => throw new NotSupportedException();

        public override SynchronizationContext CreateCopy() => this;

        public bool TryTake(out (SendOrPostCallback Callback, object? State) work)
        {
            lock (_queue)
            {
                return _queue.TryDequeue(out work);
            }
        }
    }
}

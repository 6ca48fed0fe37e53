import { Box, render, Text } from 'ink';
import { useEffect, useState } from 'react';
import type { LockerView, SimLocker } from './locker.ts';

const colour = (status: LockerView['status']) =>
  status === 'online' ? 'green' : status === 'pairing' ? 'yellow' : status === 'connecting' ? 'cyan' : 'red';

const columns: [string, number][] = [
  ['#', 5],
  ['status', 20],
  ['machine', 12],
  ['temp', 8],
  ['mode', 10],
  ['queue', 7],
  ['seq', 7],
  ['bags', 6],
  ['', 5],
];

function Row({ v }: { v: LockerView }) {
  return (
    <Box>
      <Box width={5}>
        <Text>#{v.index}</Text>
      </Box>
      <Box width={20}>
        <Text color={colour(v.status)}>{v.status}</Text>
      </Box>
      <Box width={12}>
        <Text>{v.userCode ? <Text bold>{v.userCode}</Text> : (v.machineId?.slice(-8) ?? '')}</Text>
      </Box>
      <Box width={8}>
        <Text>{v.temperature === null ? '–' : `${v.temperature.toFixed(1)}°C`}</Text>
      </Box>
      <Box width={10}>
        <Text dimColor>{v.temperatureMode}</Text>
      </Box>
      <Box width={7}>
        <Text>{v.queued}</Text>
      </Box>
      <Box width={7}>
        <Text>{v.seq}</Text>
      </Box>
      <Box width={6}>
        <Text>{v.bags}</Text>
      </Box>
      <Box width={5}>
        <Text color="red">{v.outOfOrder ? 'OOO' : ''}</Text>
      </Box>
      <Text dimColor>{v.lastEvent}</Text>
    </Box>
  );
}

function Screen({ lockers, footer }: { lockers: SimLocker[]; footer: string }) {
  const [views, setViews] = useState(() => lockers.map((l) => l.view()));
  useEffect(() => {
    const timer = setInterval(() => setViews(lockers.map((l) => l.view())), 500);
    return () => clearInterval(timer);
  }, [lockers]);
  const shown = views.slice(0, 40);
  return (
    <Box flexDirection="column">
      <Box>
        {columns.map(([title, width]) => (
          <Box key={title} width={width}>
            <Text bold>{title}</Text>
          </Box>
        ))}
        <Text bold>last event</Text>
      </Box>
      {shown.map((v) => (
        <Row key={v.index} v={v} />
      ))}
      {views.length > shown.length ? <Text dimColor>…and {views.length - shown.length} more</Text> : null}
      <Text dimColor>{footer}</Text>
    </Box>
  );
}

/** Shows every locker's state, refreshed twice a second. */
export const renderScreen = (lockers: SimLocker[], footer: string) =>
  render(<Screen lockers={lockers} footer={footer} />);

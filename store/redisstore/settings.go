package redisstore

import (
	"context"
	"errors"
	"fmt"

	"github.com/redis/go-redis/v9"

	"arbiter/store"
)

// settingsKey holds a channel's settings, on the channel's slot.
func settingsKey(channel string) string { return "{ch:" + channel + "}:settings" }

// ChannelSetting returns a channel's setting called key, or "" when it is
// not set.
func (s *Redis) ChannelSetting(ctx context.Context, channel, key string) (string, error) {
	if err := store.CheckID("channel", channel); err != nil {
		return "", fmt.Errorf("channel setting: %w", err)
	}
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	v, err := s.rdb.HGet(ctx, settingsKey(channel), key).Result()
	if errors.Is(err, redis.Nil) {
		return "", nil
	}
	if err != nil {
		return "", fail(caller, "read setting "+key+" of channel "+channel, err)
	}
	return v, nil
}

// SetChannelSetting sets a channel's setting called key to value; an
// empty value removes it. Settings outlive the channel's games.
func (s *Redis) SetChannelSetting(ctx context.Context, channel, key, value string) error {
	if err := store.CheckID("channel", channel); err != nil {
		return fmt.Errorf("set channel setting: %w", err)
	}
	caller := ctx
	ctx, cancel := s.op(ctx, 0)
	defer cancel()
	var err error
	if value == "" {
		err = s.rdb.HDel(ctx, settingsKey(channel), key).Err()
	} else {
		err = s.rdb.HSet(ctx, settingsKey(channel), key, value).Err()
	}
	if err != nil {
		return fail(caller, "set setting "+key+" of channel "+channel, err)
	}
	return nil
}

static const struct net_proto_family unix_family_ops = {
	.family = PF_UNIX,
};

static int __init af_unix_init(void)
{
	sock_register(&unix_family_ops);
}

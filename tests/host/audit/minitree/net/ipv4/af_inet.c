static const struct net_proto_family inet_family_ops = {
	.family = PF_INET,
};

static int __init inet_init(void)
{
	(void)sock_register(&inet_family_ops);
}
